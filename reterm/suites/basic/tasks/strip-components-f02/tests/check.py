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
want = {'bin/ember': '#!/bin/sh\necho ember-2.18.6\n', 'conf/ember.conf': '# ember-2.18.6 conf/ember.conf\nvalue=373424\n', 'conf/logging.conf': '# ember-2.18.6 conf/logging.conf\nvalue=184764\n', 'docs/README.txt': '# ember-2.18.6 docs/README.txt\nvalue=218702\n', 'lib/ember/core.py': '# ember-2.18.6 lib/ember/core.py\nvalue=217504\n', 'lib/ember/util.py': '# ember-2.18.6 lib/ember/util.py\nvalue=208674\n', 'docs/CHANGES.txt': '# ember-2.18.6 docs/CHANGES.txt\nvalue=287022\n', 'conf/alpha.conf': '# ember-2.18.6 conf/alpha.conf\nvalue=29940\n', 'lib/ember/alpha.py': '# ember-2.18.6 lib/ember/alpha.py\nvalue=132346\n'}
for rel, content in want.items():
    if read(os.path.join("/app/install", rel)) != content:
        fail(f"/app/install/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/install"):
    files += [os.path.relpath(os.path.join(root, f), "/app/install") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/install") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/install holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['bin', 'conf', 'docs', 'lib', 'lib/ember']:
    fail(f"/app/install holds the directories {sorted(dirs)}, expected exactly ['bin', 'conf', 'docs', 'lib', 'lib/ember']")
if not os.path.isfile("/app/dist/ember-2.18.6.tar.gz"):
    fail("the archive /app/dist/ember-2.18.6.tar.gz was removed")
with open("/app/dist/ember-2.18.6.tar.gz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'gz' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/dist/ember-2.18.6.tar.gz was changed: {e}")
if names != ['ember-2.18.6/bin/ember', 'ember-2.18.6/conf/alpha.conf', 'ember-2.18.6/conf/ember.conf', 'ember-2.18.6/conf/logging.conf', 'ember-2.18.6/docs/CHANGES.txt', 'ember-2.18.6/docs/README.txt', 'ember-2.18.6/lib/ember/alpha.py', 'ember-2.18.6/lib/ember/core.py', 'ember-2.18.6/lib/ember/util.py']:
    fail("the archive /app/dist/ember-2.18.6.tar.gz was changed")
print("PASS")
