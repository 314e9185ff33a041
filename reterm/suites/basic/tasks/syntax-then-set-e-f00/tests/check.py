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
if read("/app/report/errors.txt") != 'fjord 5\nkepler 0\norbit 6\ntotal 11 in 3 logs\n':
    fail("/app/report/errors.txt is wrong or incomplete")
if hashlib.sha256(read("/app/logs/fjord.log").encode()).hexdigest() != "bdbeceee55f948758ac354782a2eb80409ce3d0752f53842edc5df61b2cda7b5":
    fail("/app/logs/fjord.log was modified")
if hashlib.sha256(read("/app/logs/kepler.log").encode()).hexdigest() != "6b2f5e39614ac4192cddd66079ef1b9a087585eeb0fb901a6d105d4d97b00077":
    fail("/app/logs/kepler.log was modified")
if hashlib.sha256(read("/app/logs/orbit.log").encode()).hexdigest() != "d08b4c8e45890d0cbc42b91af06ab5077ee3b6364f492aeed5b70030bf9c65a9":
    fail("/app/logs/orbit.log was modified")
print("PASS")
