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
if got != "report=juniper total=2233":
    fail(f"unexpected report: {got!r}")
if hashlib.sha256(read("/app/bin/make_report.sh").encode()).hexdigest() != "b5e23d99355526bfc25d7dde567dea00afbd441b00badc7b3b0d56d0b04b4c03":
    fail("make_report.sh was modified")
if not os.access("/app/bin/make_report.sh", os.X_OK):
    fail("make_report.sh is still not executable")
print("PASS")
