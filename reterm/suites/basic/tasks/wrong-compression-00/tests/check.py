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
want = {'harbor-4.12.0/docs/CHANGES.txt': '# harbor-4.12.0 docs/CHANGES.txt\nvalue=74062\n', 'harbor-4.12.0/share/schema.sql': '# harbor-4.12.0 share/schema.sql\nvalue=129417\n'}
for rel, content in want.items():
    if read(os.path.join("/app/restore", rel)) != content:
        fail(f"/app/restore/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/restore"):
    files += [os.path.relpath(os.path.join(root, f), "/app/restore") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/restore") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/restore holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['harbor-4.12.0', 'harbor-4.12.0/docs', 'harbor-4.12.0/share']:
    fail(f"/app/restore holds the directories {sorted(dirs)}, expected exactly ['harbor-4.12.0', 'harbor-4.12.0/docs', 'harbor-4.12.0/share']")
if not os.path.isfile("/app/downloads/harbor-4.12.0.tgz"):
    fail("the archive /app/downloads/harbor-4.12.0.tgz was removed")
with open("/app/downloads/harbor-4.12.0.tgz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'lzma' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/downloads/harbor-4.12.0.tgz was changed: {e}")
if names != ['harbor-4.12.0/bin/harbor', 'harbor-4.12.0/conf/harbor.conf', 'harbor-4.12.0/conf/logging.conf', 'harbor-4.12.0/docs/CHANGES.txt', 'harbor-4.12.0/docs/README.txt', 'harbor-4.12.0/lib/harbor/core.py', 'harbor-4.12.0/lib/harbor/lumen.py', 'harbor-4.12.0/lib/harbor/util.py', 'harbor-4.12.0/share/schema.sql']:
    fail("the archive /app/downloads/harbor-4.12.0.tgz was changed")
print("PASS")
