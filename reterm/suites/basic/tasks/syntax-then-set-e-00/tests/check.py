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
if read("/app/report/errors.txt") != 'alpha 5\njuniper 4\npixel 0\ntango 3\ntotal 12 in 4 logs\n':
    fail("/app/report/errors.txt is wrong or incomplete")
if hashlib.sha256(read("/app/logs/alpha.log").encode()).hexdigest() != "27604c71cdf756ce737672e7d843770f97399e302ca5cf8cc1db208a872ebee8":
    fail("/app/logs/alpha.log was modified")
if hashlib.sha256(read("/app/logs/juniper.log").encode()).hexdigest() != "2d13941c35d9dbea0f3a84463cca4c61139d079220aae9416c2f259cc1c3330c":
    fail("/app/logs/juniper.log was modified")
if hashlib.sha256(read("/app/logs/pixel.log").encode()).hexdigest() != "519e88663bdea001881dfe791333f9d4d1f075366374310edf46e737177edaa2":
    fail("/app/logs/pixel.log was modified")
if hashlib.sha256(read("/app/logs/tango.log").encode()).hexdigest() != "2adaf057e7a2ac9b47199bcdcb8c592bbdb013dc79581b291dbbf555ac3bb66e":
    fail("/app/logs/tango.log was modified")
print("PASS")
