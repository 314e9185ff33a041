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
if read("/app/report/errors.txt") != 'gamma 6\nindigo 3\norbit 0\nquartz 3\ntotal 12 in 4 logs\n':
    fail("/app/report/errors.txt is wrong or incomplete")
if hashlib.sha256(read("/app/logs/gamma.log").encode()).hexdigest() != "7100682875ffd5c29619785d9be87c0cbca6dec4163b5f274fd7facdb06de27a":
    fail("/app/logs/gamma.log was modified")
if hashlib.sha256(read("/app/logs/indigo.log").encode()).hexdigest() != "11082cd1659dc540c18f0118302b2fc4145f149652fb2a74eac7026b7eb1aa05":
    fail("/app/logs/indigo.log was modified")
if hashlib.sha256(read("/app/logs/orbit.log").encode()).hexdigest() != "2f9669e89a3f444cb009ebc09ad7f610102242822378accc6d7e777df944a272":
    fail("/app/logs/orbit.log was modified")
if hashlib.sha256(read("/app/logs/quartz.log").encode()).hexdigest() != "ca606e8ba6cd4843b3790154aa79f98c7f74a047c379a476610f7163f1cd27de":
    fail("/app/logs/quartz.log was modified")
print("PASS")
