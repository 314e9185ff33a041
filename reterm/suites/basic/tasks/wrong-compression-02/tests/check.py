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
want = {'alpha-4.6.7/LICENSE.txt': '# alpha-4.6.7 LICENSE.txt\nvalue=658710\n', 'alpha-4.6.7/bin/alpha': '#!/bin/sh\necho alpha-4.6.7\n', 'alpha-4.6.7/conf/alpha.conf': '# alpha-4.6.7 conf/alpha.conf\nvalue=166432\n', 'alpha-4.6.7/conf/logging.conf': '# alpha-4.6.7 conf/logging.conf\nvalue=27729\n', 'alpha-4.6.7/docs/CHANGES.txt': '# alpha-4.6.7 docs/CHANGES.txt\nvalue=813715\n', 'alpha-4.6.7/docs/README.txt': '# alpha-4.6.7 docs/README.txt\nvalue=808188\n', 'alpha-4.6.7/lib/alpha/core.py': '# alpha-4.6.7 lib/alpha/core.py\nvalue=597208\n', 'alpha-4.6.7/lib/alpha/util.py': '# alpha-4.6.7 lib/alpha/util.py\nvalue=381957\n', 'alpha-4.6.7/share/schema.sql': '# alpha-4.6.7 share/schema.sql\nvalue=914418\n'}
for rel, content in want.items():
    if read(os.path.join("/app/vendor", rel)) != content:
        fail(f"/app/vendor/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/vendor"):
    files += [os.path.relpath(os.path.join(root, f), "/app/vendor") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/vendor") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/vendor holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['alpha-4.6.7', 'alpha-4.6.7/bin', 'alpha-4.6.7/conf', 'alpha-4.6.7/docs', 'alpha-4.6.7/lib', 'alpha-4.6.7/lib/alpha', 'alpha-4.6.7/share']:
    fail(f"/app/vendor holds the directories {sorted(dirs)}, expected exactly ['alpha-4.6.7', 'alpha-4.6.7/bin', 'alpha-4.6.7/conf', 'alpha-4.6.7/docs', 'alpha-4.6.7/lib', 'alpha-4.6.7/lib/alpha', 'alpha-4.6.7/share']")
if not os.path.isfile("/app/downloads/alpha-4.6.7.tar.gz"):
    fail("the archive /app/downloads/alpha-4.6.7.tar.gz was removed")
with open("/app/downloads/alpha-4.6.7.tar.gz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'lzma' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/downloads/alpha-4.6.7.tar.gz was changed: {e}")
if names != ['alpha-4.6.7/LICENSE.txt', 'alpha-4.6.7/bin/alpha', 'alpha-4.6.7/conf/alpha.conf', 'alpha-4.6.7/conf/logging.conf', 'alpha-4.6.7/docs/CHANGES.txt', 'alpha-4.6.7/docs/README.txt', 'alpha-4.6.7/lib/alpha/core.py', 'alpha-4.6.7/lib/alpha/util.py', 'alpha-4.6.7/share/schema.sql']:
    fail("the archive /app/downloads/alpha-4.6.7.tar.gz was changed")
print("PASS")
