import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import subprocess
if subprocess.run(["bash", "-n", "/app/release.sh"]).returncode != 0:
    fail("release.sh still has a syntax error")
if read("/app/release/VERSION").strip() != "3.16.8":
    fail("release/VERSION is wrong")
if read("/app/release/MANIFEST") != 'quartz.txt 43\nsierra.txt 50\ntango.txt 37\n':
    fail("release/MANIFEST is wrong")
print("PASS")
