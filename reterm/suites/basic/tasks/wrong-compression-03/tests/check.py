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
want = {'juniper-1.7.6/docs/CHANGES.txt': '# juniper-1.7.6 docs/CHANGES.txt\nvalue=149741\n', 'juniper-1.7.6/docs/README.txt': '# juniper-1.7.6 docs/README.txt\nvalue=346536\n'}
for rel, content in want.items():
    if read(os.path.join("/app/srv/juniper", rel)) != content:
        fail(f"/app/srv/juniper/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/srv/juniper"):
    files += [os.path.relpath(os.path.join(root, f), "/app/srv/juniper") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/srv/juniper") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/srv/juniper holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['juniper-1.7.6', 'juniper-1.7.6/docs']:
    fail(f"/app/srv/juniper holds the directories {sorted(dirs)}, expected exactly ['juniper-1.7.6', 'juniper-1.7.6/docs']")
if not os.path.isfile("/app/downloads/juniper-1.7.6.tar.gz"):
    fail("the archive /app/downloads/juniper-1.7.6.tar.gz was removed")
with open("/app/downloads/juniper-1.7.6.tar.gz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'lzma' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/downloads/juniper-1.7.6.tar.gz was changed: {e}")
if names != ['juniper-1.7.6/LICENSE.txt', 'juniper-1.7.6/bin/juniper', 'juniper-1.7.6/conf/juniper.conf', 'juniper-1.7.6/conf/logging.conf', 'juniper-1.7.6/docs/CHANGES.txt', 'juniper-1.7.6/docs/README.txt', 'juniper-1.7.6/lib/juniper/cedar.py', 'juniper-1.7.6/lib/juniper/core.py', 'juniper-1.7.6/lib/juniper/util.py']:
    fail("the archive /app/downloads/juniper-1.7.6.tar.gz was changed")
print("PASS")
