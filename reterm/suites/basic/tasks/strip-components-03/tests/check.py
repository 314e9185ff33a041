import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import io, lzma, tarfile
want = {'bin/orbit': '#!/bin/sh\necho orbit-4.18.6\n', 'conf/orbit.conf': '# orbit-4.18.6 conf/orbit.conf\nvalue=659827\n', 'conf/logging.conf': '# orbit-4.18.6 conf/logging.conf\nvalue=219583\n', 'docs/README.txt': '# orbit-4.18.6 docs/README.txt\nvalue=667861\n', 'lib/orbit/core.py': '# orbit-4.18.6 lib/orbit/core.py\nvalue=224768\n', 'lib/orbit/util.py': '# orbit-4.18.6 lib/orbit/util.py\nvalue=977743\n', 'lib/orbit/gamma.py': '# orbit-4.18.6 lib/orbit/gamma.py\nvalue=990087\n', 'share/schema.sql': '# orbit-4.18.6 share/schema.sql\nvalue=563507\n', 'conf/gamma.conf': '# orbit-4.18.6 conf/gamma.conf\nvalue=48679\n'}
for rel, content in want.items():
    if read(os.path.join("/app/srv/orbit", rel)) != content:
        fail(f"/app/srv/orbit/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/srv/orbit"):
    files += [os.path.relpath(os.path.join(root, f), "/app/srv/orbit") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/srv/orbit") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/srv/orbit holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['bin', 'conf', 'docs', 'lib', 'lib/orbit', 'share']:
    fail(f"/app/srv/orbit holds the directories {sorted(dirs)}, expected exactly ['bin', 'conf', 'docs', 'lib', 'lib/orbit', 'share']")
if not os.path.isfile("/app/dist/orbit-4.18.6.tar.gz"):
    fail("the archive /app/dist/orbit-4.18.6.tar.gz was removed")
with open("/app/dist/orbit-4.18.6.tar.gz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'gz' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/dist/orbit-4.18.6.tar.gz was changed: {e}")
if names != ['orbit-4.18.6/bin/orbit', 'orbit-4.18.6/conf/gamma.conf', 'orbit-4.18.6/conf/logging.conf', 'orbit-4.18.6/conf/orbit.conf', 'orbit-4.18.6/docs/README.txt', 'orbit-4.18.6/lib/orbit/core.py', 'orbit-4.18.6/lib/orbit/gamma.py', 'orbit-4.18.6/lib/orbit/util.py', 'orbit-4.18.6/share/schema.sql']:
    fail("the archive /app/dist/orbit-4.18.6.tar.gz was changed")
print("PASS")
