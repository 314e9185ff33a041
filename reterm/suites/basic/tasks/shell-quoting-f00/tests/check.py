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
inbox, manifest = {'juniper.log': 'gamma raven\norbit juniper indigo indigo nova\njuniper cedar juniper quartz lumen maple\nvertex ember orbit harbor\nnova kepler\nkepler raven\n', 'nova old list.csv': 'maple ember orbit\nmaple gamma tango maple bravo\nbravo quartz\nkepler pixel quartz orbit\nquartz juniper maple\n', 'umber meeting minutes.csv': 'quartz nova juniper umber\norbit quartz tango gamma ember nova\nfjord bravo\nnova delta quartz cedar fjord delta\ndelta harbor gamma quartz lumen\nquartz delta orbit harbor\n', 'tango.log': 'vertex orbit\nmaple juniper umber fjord orbit maple\nlumen pixel fjord\number ember fjord gamma\n'}, 'juniper.log\t137\nnova old list.csv\t108\ntango.log\t93\number meeting minutes.csv\t168\n'
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
