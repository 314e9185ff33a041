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
inbox, manifest = {'indigo old list.csv': 'nova umber\nalpha sierra maple fjord umber harbor\number raven kepler kepler\n', 'maple final report.csv': 'vertex cedar indigo ember bravo\norbit cedar\nkepler fjord indigo\nmaple bravo umber nova tango cedar\n', 'pixel.log': 'bravo\nmaple cedar juniper umber quartz orbit\n', 'alpha meeting minutes.log': 'indigo tango lumen orbit vertex\nquartz quartz raven delta kepler\nraven umber gamma\ntango ember\njuniper raven kepler\n', 'cedar old list.txt': 'orbit sierra sierra\nquartz\nkepler\nmaple\nnova lumen harbor bravo fjord\n'}, 'alpha meeting minutes.log\t18\ncedar old list.txt\t11\nindigo old list.csv\t12\nmaple final report.csv\t16\npixel.log\t7\n'
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
    subprocess.run(["bash", "/app/bin/sync.sh"], capture_output=True, timeout=30)
except subprocess.TimeoutExpired:
    fail("/app/bin/sync.sh hangs")
outcome("running /app/bin/sync.sh again on a clean /app/backup")
print("PASS")
