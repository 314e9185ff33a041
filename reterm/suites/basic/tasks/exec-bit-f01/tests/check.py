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
if got != "report=ember total=1563":
    fail(f"unexpected report: {got!r}")
if hashlib.sha256(read("/app/bin/make_report.sh").encode()).hexdigest() != "082008d774b869ed862f3ca6e0c9d45632bd4cf7a8e76ac44c7f66f3b0ba3634":
    fail("make_report.sh was modified")
if not os.access("/app/bin/make_report.sh", os.X_OK):
    fail("make_report.sh is still not executable")
print("PASS")
