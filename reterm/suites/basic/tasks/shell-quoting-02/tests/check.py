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
inbox, manifest = {'juniper.csv': 'tango\ntango quartz harbor\nalpha quartz cedar\npixel delta\n', 'indigo final report.txt': 'umber cedar\nalpha vertex bravo quartz\ndelta vertex\number ember delta raven\ntango fjord nova ember pixel alpha\nbravo delta\n', 'gamma.txt': 'gamma vertex gamma\ncedar harbor umber nova\nmaple maple kepler bravo\nbravo juniper harbor raven\n', 'harbor.log': 'raven cedar quartz\nember\nalpha tango bravo kepler delta kepler\n', 'fjord todo.csv': 'nova quartz\n', 'alpha price sheet.log': 'harbor alpha quartz alpha umber\nbravo tango gamma\n'}, 'alpha price sheet.log\t2\nfjord todo.csv\t1\ngamma.txt\t4\nharbor.log\t3\nindigo final report.txt\t6\njuniper.csv\t4\n'
for name, content in inbox.items():
    if read("/app/uploads/" + name) != content:
        fail(f"/app/uploads/{name} was changed")
if sorted(os.listdir("/app/uploads")) != sorted(inbox):
    fail("files were added to or removed from /app/uploads")
def outcome(when):
    if sorted(os.listdir("/app/mirror")) != sorted([*inbox, "MANIFEST"]):
        fail(f"{when}: /app/mirror does not hold exactly the copies and MANIFEST")
    for name, content in inbox.items():
        if read("/app/mirror/" + name) != content:
            fail(f"{when}: /app/mirror/{name} is not an exact copy")
    if read("/app/mirror/MANIFEST") != manifest:
        fail(f"{when}: MANIFEST is wrong")
outcome("after your run")
shutil.rmtree("/app/mirror")
try:
    subprocess.run(["bash", "/app/bin/stash.sh"], capture_output=True, timeout=30)
except subprocess.TimeoutExpired:
    fail("/app/bin/stash.sh hangs")
outcome("running /app/bin/stash.sh again on a clean /app/mirror")
print("PASS")
