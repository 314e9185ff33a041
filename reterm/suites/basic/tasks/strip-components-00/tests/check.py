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
want = {'lib/sierra/core.py': '# sierra-3.2.9 lib/sierra/core.py\nvalue=120117\n', 'lib/sierra/util.py': '# sierra-3.2.9 lib/sierra/util.py\nvalue=506878\n', 'lib/sierra/tango.py': '# sierra-3.2.9 lib/sierra/tango.py\nvalue=26800\n'}
for rel, content in want.items():
    if read(os.path.join("/app/srv/sierra", rel)) != content:
        fail(f"/app/srv/sierra/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/srv/sierra"):
    files += [os.path.relpath(os.path.join(root, f), "/app/srv/sierra") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/srv/sierra") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/srv/sierra holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['lib', 'lib/sierra']:
    fail(f"/app/srv/sierra holds the directories {sorted(dirs)}, expected exactly ['lib', 'lib/sierra']")
if not os.path.isfile("/app/dist/sierra-3.2.9.tar.gz"):
    fail("the archive /app/dist/sierra-3.2.9.tar.gz was removed")
with open("/app/dist/sierra-3.2.9.tar.gz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'gz' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/dist/sierra-3.2.9.tar.gz was changed: {e}")
if names != ['sierra-3.2.9/LICENSE.txt', 'sierra-3.2.9/bin/sierra', 'sierra-3.2.9/conf/logging.conf', 'sierra-3.2.9/conf/sierra.conf', 'sierra-3.2.9/docs/CHANGES.txt', 'sierra-3.2.9/docs/README.txt', 'sierra-3.2.9/lib/sierra/core.py', 'sierra-3.2.9/lib/sierra/tango.py', 'sierra-3.2.9/lib/sierra/util.py']:
    fail("the archive /app/dist/sierra-3.2.9.tar.gz was changed")
print("PASS")
