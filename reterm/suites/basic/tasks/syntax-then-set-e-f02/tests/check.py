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
if subprocess.run(["bash", "-n", "/app/summarize.sh"]).returncode != 0:
    fail("summarize.sh still has a syntax error")
if "\nset -euo pipefail\n" not in read("/app/summarize.sh"):
    fail("summarize.sh must keep its `set -euo pipefail` line")
if read("/app/report/errors.txt") != 'ember 0\nindigo 4\npixel 4\ntotal 8 in 3 logs\n':
    fail("/app/report/errors.txt is wrong or incomplete")
if hashlib.sha256(read("/app/logs/ember.log").encode()).hexdigest() != "6fedbc933a07b57bfd0d57bfd1088d181f3bffdfd0d588a8225410a9aaa473c5":
    fail("/app/logs/ember.log was modified")
if hashlib.sha256(read("/app/logs/indigo.log").encode()).hexdigest() != "f0781974709e460d35d50f799ed20039c5f66b060cc102ba5408dea53aa31f57":
    fail("/app/logs/indigo.log was modified")
if hashlib.sha256(read("/app/logs/pixel.log").encode()).hexdigest() != "d25adf21a373025340ae3103fd1ef8d736fa0e6cf41089cf5a130ab85a554030":
    fail("/app/logs/pixel.log was modified")
print("PASS")
