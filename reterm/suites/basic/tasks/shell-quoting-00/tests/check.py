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
inbox, manifest = {'pixel meeting minutes.log': 'pixel sierra quartz fjord sierra\n', 'gamma old list.txt': 'tango\ndelta kepler vertex\n', 'maple final report.txt': 'vertex quartz\nmaple tango raven\number tango maple raven tango vertex\n', 'indigo.csv': 'alpha cedar harbor quartz bravo indigo\nfjord\nquartz\nmaple raven umber\n'}, 'gamma old list.txt\t4\nindigo.csv\t11\nmaple final report.txt\t11\npixel meeting minutes.log\t5\n'
for name, content in inbox.items():
    if read("/app/incoming/" + name) != content:
        fail(f"/app/incoming/{name} was changed")
if sorted(os.listdir("/app/incoming")) != sorted(inbox):
    fail("files were added to or removed from /app/incoming")
def outcome(when):
    if sorted(os.listdir("/app/archive")) != sorted([*inbox, "MANIFEST"]):
        fail(f"{when}: /app/archive does not hold exactly the copies and MANIFEST")
    for name, content in inbox.items():
        if read("/app/archive/" + name) != content:
            fail(f"{when}: /app/archive/{name} is not an exact copy")
    if read("/app/archive/MANIFEST") != manifest:
        fail(f"{when}: MANIFEST is wrong")
outcome("after your run")
shutil.rmtree("/app/archive")
try:
    subprocess.run(["bash", "/app/bin/stash.sh"], capture_output=True, timeout=30)
except subprocess.TimeoutExpired:
    fail("/app/bin/stash.sh hangs")
outcome("running /app/bin/stash.sh again on a clean /app/archive")
print("PASS")
