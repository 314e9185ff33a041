import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/report.txt").strip()
if got != "report=tango total=3146":
    fail(f"unexpected report: {got!r}")
if hashlib.sha256(read("/app/bin/make_report.sh").encode()).hexdigest() != "76a8e281ed16ea17a9e8cccb7e490b0b4c9f03381b9f174f008833efad18c29b":
    fail("make_report.sh was modified")
if not os.access("/app/bin/make_report.sh", os.X_OK):
    fail("make_report.sh is still not executable")
print("PASS")
