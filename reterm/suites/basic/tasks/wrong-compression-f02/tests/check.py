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
want = {'cedar-4.19.5/docs/CHANGES.txt': '# cedar-4.19.5 docs/CHANGES.txt\nvalue=957839\n', 'cedar-4.19.5/docs/README.txt': '# cedar-4.19.5 docs/README.txt\nvalue=199566\n'}
for rel, content in want.items():
    if read(os.path.join("/app/restore", rel)) != content:
        fail(f"/app/restore/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/restore"):
    files += [os.path.relpath(os.path.join(root, f), "/app/restore") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/restore") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/restore holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['cedar-4.19.5', 'cedar-4.19.5/docs']:
    fail(f"/app/restore holds the directories {sorted(dirs)}, expected exactly ['cedar-4.19.5', 'cedar-4.19.5/docs']")
if not os.path.isfile("/app/downloads/cedar-4.19.5.tgz"):
    fail("the archive /app/downloads/cedar-4.19.5.tgz was removed")
with open("/app/downloads/cedar-4.19.5.tgz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'tar' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/downloads/cedar-4.19.5.tgz was changed: {e}")
if names != ['cedar-4.19.5/bin/cedar', 'cedar-4.19.5/conf/cedar.conf', 'cedar-4.19.5/conf/kepler.conf', 'cedar-4.19.5/conf/logging.conf', 'cedar-4.19.5/docs/CHANGES.txt', 'cedar-4.19.5/docs/README.txt', 'cedar-4.19.5/lib/cedar/core.py', 'cedar-4.19.5/lib/cedar/util.py', 'cedar-4.19.5/share/kepler.csv']:
    fail("the archive /app/downloads/cedar-4.19.5.tgz was changed")
print("PASS")
