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
if read("/app/report/errors.txt") != 'alpha 1\nraven 6\nvertex 0\ntotal 7 in 3 logs\n':
    fail("/app/report/errors.txt is wrong or incomplete")
if hashlib.sha256(read("/app/logs/alpha.log").encode()).hexdigest() != "832dc28dba70d1fdce4d609a23452d0b818015bf4b2393068182195e54d60f34":
    fail("/app/logs/alpha.log was modified")
if hashlib.sha256(read("/app/logs/raven.log").encode()).hexdigest() != "51d1a037b9e1de3dcf13f272062ef868518520ecf4834bef5c128ce6ccd06eb4":
    fail("/app/logs/raven.log was modified")
if hashlib.sha256(read("/app/logs/vertex.log").encode()).hexdigest() != "de4bb85fd62319c3a4395cfd38b62fce2322d23f40bae0efc3e239128e2f8844":
    fail("/app/logs/vertex.log was modified")
print("PASS")
