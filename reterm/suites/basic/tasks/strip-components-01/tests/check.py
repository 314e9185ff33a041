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
want = {'bin/juniper': '#!/bin/sh\necho juniper-4.10.8\n', 'conf/juniper.conf': '# juniper-4.10.8 conf/juniper.conf\nvalue=281072\n', 'conf/logging.conf': '# juniper-4.10.8 conf/logging.conf\nvalue=55257\n', 'docs/README.txt': '# juniper-4.10.8 docs/README.txt\nvalue=471525\n', 'lib/juniper/core.py': '# juniper-4.10.8 lib/juniper/core.py\nvalue=863248\n', 'lib/juniper/util.py': '# juniper-4.10.8 lib/juniper/util.py\nvalue=670526\n', 'LICENSE.txt': '# juniper-4.10.8 LICENSE.txt\nvalue=622330\n', 'docs/CHANGES.txt': '# juniper-4.10.8 docs/CHANGES.txt\nvalue=89282\n', 'share/bravo.csv': '# juniper-4.10.8 share/bravo.csv\nvalue=498238\n'}
for rel, content in want.items():
    if read(os.path.join("/app/site", rel)) != content:
        fail(f"/app/site/{rel} has the wrong content")
files, dirs = [], []
for root, ds, fs in os.walk("/app/site"):
    files += [os.path.relpath(os.path.join(root, f), "/app/site") for f in fs]
    dirs += [os.path.relpath(os.path.join(root, x), "/app/site") for x in ds]
if sorted(files) != sorted(want):
    fail(f"/app/site holds the files {sorted(files)}, expected exactly {sorted(want)}")
if sorted(dirs) != ['bin', 'conf', 'docs', 'lib', 'lib/juniper', 'share']:
    fail(f"/app/site holds the directories {sorted(dirs)}, expected exactly ['bin', 'conf', 'docs', 'lib', 'lib/juniper', 'share']")
if not os.path.isfile("/app/dist/juniper-4.10.8.tar.gz"):
    fail("the archive /app/dist/juniper-4.10.8.tar.gz was removed")
with open("/app/dist/juniper-4.10.8.tar.gz", "rb") as f:
    raw = f.read()
try:
    data = raw if 'gz' in ("tar", "gz") else lzma.decompress(raw)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf:
        names = sorted(m.name for m in tf.getmembers() if m.isfile())
except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
    fail(f"the archive /app/dist/juniper-4.10.8.tar.gz was changed: {e}")
if names != ['./juniper-4.10.8/LICENSE.txt', './juniper-4.10.8/bin/juniper', './juniper-4.10.8/conf/juniper.conf', './juniper-4.10.8/conf/logging.conf', './juniper-4.10.8/docs/CHANGES.txt', './juniper-4.10.8/docs/README.txt', './juniper-4.10.8/lib/juniper/core.py', './juniper-4.10.8/lib/juniper/util.py', './juniper-4.10.8/share/bravo.csv']:
    fail("the archive /app/dist/juniper-4.10.8.tar.gz was changed")
print("PASS")
