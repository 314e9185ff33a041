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
want = {'maple-4.16.3/docs/CHANGES.txt': '# maple-4.16.3 docs/CHANGES.txt\nvalue=999\n', 'maple-4.16.3/docs/README.txt': '# maple-4.16.3 docs/README.txt\nvalue=983534\n'}
for rel, content in want.items():
    if read(os.path.join("/app/restore", rel)) != content:
        fail(f"/app/restore/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/restore"):
    files += [os.path.relpath(os.path.join(root, f), "/app/restore") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/restore") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/restore holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['maple-4.16.3', 'maple-4.16.3/docs']:
    fail(f"/app/restore holds the directories {sorted(dirs)}, expected exactly ['maple-4.16.3', 'maple-4.16.3/docs']")
if not os.path.isfile("/app/downloads/maple-4.16.3.tgz"):
    fail("the archive /app/downloads/maple-4.16.3.tgz was removed")
with open("/app/downloads/maple-4.16.3.tgz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'tar' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/downloads/maple-4.16.3.tgz was changed: {e}")
if names != ['maple-4.16.3/LICENSE.txt', 'maple-4.16.3/bin/maple', 'maple-4.16.3/conf/logging.conf', 'maple-4.16.3/conf/maple.conf', 'maple-4.16.3/docs/CHANGES.txt', 'maple-4.16.3/docs/README.txt', 'maple-4.16.3/lib/maple/core.py', 'maple-4.16.3/lib/maple/util.py', 'maple-4.16.3/share/schema.sql']:
    fail("the archive /app/downloads/maple-4.16.3.tgz was changed")
print("PASS")
