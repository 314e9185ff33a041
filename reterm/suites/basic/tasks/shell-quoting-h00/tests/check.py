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
inbox, manifest = {'alpha.log': 'cedar gamma pixel delta\n', 'vertex meeting minutes.txt': 'ember pixel\nkepler ember fjord\nmaple tango cedar delta\nraven\nindigo vertex juniper ember lumen\nalpha vertex maple maple raven\n', 'maple price sheet.csv': 'vertex bravo tango\number pixel juniper maple\nlumen sierra vertex lumen raven\norbit\norbit vertex fjord harbor\ntango umber\n', 'orbit.txt': 'raven pixel\nindigo ember tango\nvertex\nvertex orbit tango harbor orbit ember\nfjord\n', 'indigo.csv': 'cedar quartz harbor pixel delta\n'}, 'alpha.log\t4\nindigo.csv\t5\nmaple price sheet.csv\t19\norbit.txt\t13\nvertex meeting minutes.txt\t20\n'
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
    subprocess.run(["bash", "/app/bin/sync.sh"], capture_output=True, timeout=30)
except subprocess.TimeoutExpired:
    fail("/app/bin/sync.sh hangs")
outcome("running /app/bin/sync.sh again on a clean /app/mirror")
print("PASS")
