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
want = {'alpha-4.18.5/LICENSE.txt': '# alpha-4.18.5 LICENSE.txt\nvalue=371821\n', 'alpha-4.18.5/bin/alpha': '#!/bin/sh\necho alpha-4.18.5\n', 'alpha-4.18.5/conf/alpha.conf': '# alpha-4.18.5 conf/alpha.conf\nvalue=202576\n', 'alpha-4.18.5/conf/logging.conf': '# alpha-4.18.5 conf/logging.conf\nvalue=286314\n', 'alpha-4.18.5/docs/CHANGES.txt': '# alpha-4.18.5 docs/CHANGES.txt\nvalue=534939\n', 'alpha-4.18.5/docs/README.txt': '# alpha-4.18.5 docs/README.txt\nvalue=875989\n', 'alpha-4.18.5/lib/alpha/core.py': '# alpha-4.18.5 lib/alpha/core.py\nvalue=114113\n', 'alpha-4.18.5/lib/alpha/util.py': '# alpha-4.18.5 lib/alpha/util.py\nvalue=833888\n', 'alpha-4.18.5/share/schema.sql': '# alpha-4.18.5 share/schema.sql\nvalue=903924\n'}
for rel, content in want.items():
    if read(os.path.join("/app/opt", rel)) != content:
        fail(f"/app/opt/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/opt"):
    files += [os.path.relpath(os.path.join(root, f), "/app/opt") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/opt") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/opt holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['alpha-4.18.5', 'alpha-4.18.5/bin', 'alpha-4.18.5/conf', 'alpha-4.18.5/docs', 'alpha-4.18.5/lib', 'alpha-4.18.5/lib/alpha', 'alpha-4.18.5/share']:
    fail(f"/app/opt holds the directories {sorted(dirs)}, expected exactly ['alpha-4.18.5', 'alpha-4.18.5/bin', 'alpha-4.18.5/conf', 'alpha-4.18.5/docs', 'alpha-4.18.5/lib', 'alpha-4.18.5/lib/alpha', 'alpha-4.18.5/share']")
if not os.path.isfile("/app/downloads/alpha-4.18.5.tar.gz"):
    fail("the archive /app/downloads/alpha-4.18.5.tar.gz was removed")
with open("/app/downloads/alpha-4.18.5.tar.gz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'lzma' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/downloads/alpha-4.18.5.tar.gz was changed: {e}")
if names != ['alpha-4.18.5/LICENSE.txt', 'alpha-4.18.5/bin/alpha', 'alpha-4.18.5/conf/alpha.conf', 'alpha-4.18.5/conf/logging.conf', 'alpha-4.18.5/docs/CHANGES.txt', 'alpha-4.18.5/docs/README.txt', 'alpha-4.18.5/lib/alpha/core.py', 'alpha-4.18.5/lib/alpha/util.py', 'alpha-4.18.5/share/schema.sql']:
    fail("the archive /app/downloads/alpha-4.18.5.tar.gz was changed")
print("PASS")
