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
want = {'docs/README.txt': '# orbit-3.20.8 docs/README.txt\nvalue=288566\n', 'LICENSE.txt': '# orbit-3.20.8 LICENSE.txt\nvalue=314721\n'}
for rel, content in want.items():
    if read(os.path.join("/app/orbit", rel)) != content:
        fail(f"/app/orbit/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/orbit"):
    files += [os.path.relpath(os.path.join(root, f), "/app/orbit") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/orbit") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/orbit holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['docs']:
    fail(f"/app/orbit holds the directories {sorted(dirs)}, expected exactly ['docs']")
if not os.path.isfile("/app/dist/orbit-3.20.8.tar.gz"):
    fail("the archive /app/dist/orbit-3.20.8.tar.gz was removed")
with open("/app/dist/orbit-3.20.8.tar.gz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'gz' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/dist/orbit-3.20.8.tar.gz was changed: {e}")
if names != ['orbit-3.20.8/LICENSE.txt', 'orbit-3.20.8/bin/orbit', 'orbit-3.20.8/conf/logging.conf', 'orbit-3.20.8/conf/maple.conf', 'orbit-3.20.8/conf/orbit.conf', 'orbit-3.20.8/docs/README.txt', 'orbit-3.20.8/lib/orbit/core.py', 'orbit-3.20.8/lib/orbit/maple.py', 'orbit-3.20.8/lib/orbit/util.py']:
    fail("the archive /app/dist/orbit-3.20.8.tar.gz was changed")
print("PASS")
