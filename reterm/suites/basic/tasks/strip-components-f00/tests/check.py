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
want = {'conf/delta.conf': '# delta-3.13.3 conf/delta.conf\nvalue=800855\n', 'conf/logging.conf': '# delta-3.13.3 conf/logging.conf\nvalue=85454\n', 'conf/gamma.conf': '# delta-3.13.3 conf/gamma.conf\nvalue=790630\n'}
for rel, content in want.items():
    if read(os.path.join("/app/delta", rel)) != content:
        fail(f"/app/delta/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/delta"):
    files += [os.path.relpath(os.path.join(root, f), "/app/delta") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/delta") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/delta holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['conf']:
    fail(f"/app/delta holds the directories {sorted(dirs)}, expected exactly ['conf']")
if not os.path.isfile("/app/dist/delta-3.13.3.tar.gz"):
    fail("the archive /app/dist/delta-3.13.3.tar.gz was removed")
with open("/app/dist/delta-3.13.3.tar.gz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'gz' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/dist/delta-3.13.3.tar.gz was changed: {e}")
if names != ['delta-3.13.3/bin/delta', 'delta-3.13.3/conf/delta.conf', 'delta-3.13.3/conf/gamma.conf', 'delta-3.13.3/conf/logging.conf', 'delta-3.13.3/docs/README.txt', 'delta-3.13.3/lib/delta/core.py', 'delta-3.13.3/lib/delta/gamma.py', 'delta-3.13.3/lib/delta/util.py', 'delta-3.13.3/share/gamma.csv']:
    fail("the archive /app/dist/delta-3.13.3.tar.gz was changed")
print("PASS")
