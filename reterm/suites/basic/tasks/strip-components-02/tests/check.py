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
want = {'conf/ember.conf': '# ember-4.11.7 conf/ember.conf\nvalue=573511\n', 'conf/logging.conf': '# ember-4.11.7 conf/logging.conf\nvalue=284508\n'}
for rel, content in want.items():
    if read(os.path.join("/app/opt/ember", rel)) != content:
        fail(f"/app/opt/ember/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/opt/ember"):
    files += [os.path.relpath(os.path.join(root, f), "/app/opt/ember") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/opt/ember") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/opt/ember holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['conf']:
    fail(f"/app/opt/ember holds the directories {sorted(dirs)}, expected exactly ['conf']")
if not os.path.isfile("/app/dist/ember-4.11.7.tar.gz"):
    fail("the archive /app/dist/ember-4.11.7.tar.gz was removed")
with open("/app/dist/ember-4.11.7.tar.gz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'gz' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/dist/ember-4.11.7.tar.gz was changed: {e}")
if names != ['./ember-4.11.7/bin/ember', './ember-4.11.7/conf/ember.conf', './ember-4.11.7/conf/logging.conf', './ember-4.11.7/docs/CHANGES.txt', './ember-4.11.7/docs/README.txt', './ember-4.11.7/lib/ember/core.py', './ember-4.11.7/lib/ember/util.py', './ember-4.11.7/share/lumen.csv', './ember-4.11.7/share/schema.sql']:
    fail("the archive /app/dist/ember-4.11.7.tar.gz was changed")
print("PASS")
