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
if read("/app/report/errors.txt") != 'harbor 6\njuniper 0\nnova 5\ntotal 11 in 3 logs\n':
    fail("/app/report/errors.txt is wrong or incomplete")
if hashlib.sha256(read("/app/logs/harbor.log").encode()).hexdigest() != "e2947a29c60946cea07c99053eb3b6b8f8bafb4dca3e6080f4639318523a5cc3":
    fail("/app/logs/harbor.log was modified")
if hashlib.sha256(read("/app/logs/juniper.log").encode()).hexdigest() != "5c6708590b389229ca29a32a33773e6f4de9934f47bd24199775da0290771116":
    fail("/app/logs/juniper.log was modified")
if hashlib.sha256(read("/app/logs/nova.log").encode()).hexdigest() != "a6dfad549507b9818facb9bb52b182ffd0cefd09bdd3f05d71501b25095d246b":
    fail("/app/logs/nova.log was modified")
print("PASS")
