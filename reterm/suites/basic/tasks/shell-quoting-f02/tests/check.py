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
inbox, manifest = {'cedar.txt': 'gamma vertex fjord vertex cedar lumen\norbit indigo\nmaple\nember\n', 'ember draft copy.csv': 'bravo maple quartz harbor fjord\n', 'maple.txt': 'kepler sierra nova harbor maple\n', 'delta meeting minutes.csv': 'juniper gamma indigo raven\nkepler\nharbor orbit\n', 'juniper.txt': 'alpha lumen\npixel raven tango nova delta raven\nnova cedar gamma harbor umber lumen\norbit\n', 'tango.txt': 'lumen kepler lumen pixel maple\nquartz bravo vertex nova harbor indigo\nember pixel\n'}, 'cedar.txt\t4\ndelta meeting minutes.csv\t3\nember draft copy.csv\t1\njuniper.txt\t4\nmaple.txt\t1\ntango.txt\t3\n'
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
