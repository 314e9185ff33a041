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
inbox, manifest = {'umber.log': 'tango\nlumen\nember juniper ember quartz fjord pixel\ngamma umber\nharbor juniper harbor bravo juniper\nindigo fjord\n', 'vertex q3 summary.csv': 'vertex juniper maple umber delta\nbravo fjord harbor bravo bravo harbor\n', 'raven notes.log': 'ember\nmaple\njuniper kepler tango delta orbit\nbravo tango\nquartz\n', 'cedar final report.txt': 'juniper nova quartz alpha umber orbit\nsierra juniper quartz vertex cedar kepler\n', 'pixel.csv': 'lumen indigo\n'}, 'cedar final report.txt\t80\npixel.csv\t13\nraven notes.log\t64\number.log\t112\nvertex q3 summary.csv\t71\n'
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
