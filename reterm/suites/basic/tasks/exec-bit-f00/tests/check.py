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
if got != "report=indigo total=3832":
    fail(f"unexpected report: {got!r}")
if hashlib.sha256(read("/app/bin/make_report.sh").encode()).hexdigest() != "31c7e74139531feaa8f5eef9203f738980c54fe537e6683947c9513ae6652962":
    fail("make_report.sh was modified")
if not os.access("/app/bin/make_report.sh", os.X_OK):
    fail("make_report.sh is still not executable")
print("PASS")
