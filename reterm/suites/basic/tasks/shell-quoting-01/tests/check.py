import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import shutil, subprocess
inbox, manifest = {'nova.csv': 'indigo delta cedar umber indigo gamma\n', 'tango price sheet.log': 'bravo\n', 'sierra.log': 'fjord quartz pixel\nsierra delta cedar alpha fjord maple\nvertex indigo sierra juniper\nmaple quartz alpha tango\ngamma\nquartz fjord delta maple orbit\n', 'indigo notes.txt': 'orbit\n'}, 'indigo notes.txt\t1\nnova.csv\t1\nsierra.log\t6\ntango price sheet.log\t1\n'
for name, content in inbox.items():
    if read("/app/inbox/" + name) != content:
        fail(f"/app/inbox/{name} was changed")
if sorted(os.listdir("/app/inbox")) != sorted(inbox):
    fail("files were added to or removed from /app/inbox")
def outcome(when):
    if sorted(os.listdir("/app/backup")) != sorted([*inbox, "MANIFEST"]):
        fail(f"{when}: /app/backup does not hold exactly the copies and MANIFEST")
    for name, content in inbox.items():
        if read("/app/backup/" + name) != content:
            fail(f"{when}: /app/backup/{name} is not an exact copy")
    if read("/app/backup/MANIFEST") != manifest:
        fail(f"{when}: MANIFEST is wrong")
outcome("after your run")
shutil.rmtree("/app/backup")
try:
    subprocess.run(["bash", "/app/bin/archive.sh"], capture_output=True, timeout=30)
except subprocess.TimeoutExpired:
    fail("/app/bin/archive.sh hangs")
outcome("running /app/bin/archive.sh again on a clean /app/backup")
print("PASS")
