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
if read("/app/report/errors.txt") != 'orbit 6\nraven 0\ntango 3\ntotal 9 in 3 logs\n':
    fail("/app/report/errors.txt is wrong or incomplete")
if hashlib.sha256(read("/app/logs/orbit.log").encode()).hexdigest() != "da20a84d8c231328d71245669b9b3fb26804e6aa78b315025c9cfef1599a3229":
    fail("/app/logs/orbit.log was modified")
if hashlib.sha256(read("/app/logs/raven.log").encode()).hexdigest() != "0f22366f8a58b571372c904e4d0eb0ce90130e3041c5b9bf13961e97ff2c473f":
    fail("/app/logs/raven.log was modified")
if hashlib.sha256(read("/app/logs/tango.log").encode()).hexdigest() != "4de5b08e9db7d342c5fcb8097bd5652cfaab254e558b841bede2c747096403e0":
    fail("/app/logs/tango.log was modified")
print("PASS")
