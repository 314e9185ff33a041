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
want = {'fjord-4.2.6/docs/CHANGES.txt': '# fjord-4.2.6 docs/CHANGES.txt\nvalue=921062\n', 'fjord-4.2.6/docs/README.txt': '# fjord-4.2.6 docs/README.txt\nvalue=859773\n'}
for rel, content in want.items():
    if read(os.path.join("/app/opt", rel)) != content:
        fail(f"/app/opt/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/opt"):
    files += [os.path.relpath(os.path.join(root, f), "/app/opt") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/opt") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/opt holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['fjord-4.2.6', 'fjord-4.2.6/docs']:
    fail(f"/app/opt holds the directories {sorted(dirs)}, expected exactly ['fjord-4.2.6', 'fjord-4.2.6/docs']")
if not os.path.isfile("/app/downloads/fjord-4.2.6.tgz"):
    fail("the archive /app/downloads/fjord-4.2.6.tgz was removed")
with open("/app/downloads/fjord-4.2.6.tgz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'xz' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/downloads/fjord-4.2.6.tgz was changed: {e}")
if names != ['fjord-4.2.6/bin/fjord', 'fjord-4.2.6/conf/fjord.conf', 'fjord-4.2.6/conf/logging.conf', 'fjord-4.2.6/docs/CHANGES.txt', 'fjord-4.2.6/docs/README.txt', 'fjord-4.2.6/lib/fjord/core.py', 'fjord-4.2.6/lib/fjord/util.py', 'fjord-4.2.6/share/indigo.csv', 'fjord-4.2.6/share/schema.sql']:
    fail("the archive /app/downloads/fjord-4.2.6.tgz was changed")
print("PASS")
