import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/report.txt")
want = '/api/billing 18\n/api/cart 18\n/api/reports 15\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"report.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/logs/umber-proxy.log").encode()).hexdigest() != "0a9d3e1713bcfe1ca2bcbeafd8cc10b31fb5b849e3ede5deae8f8e2bda4afc4e":
    fail("the log was modified")
print("PASS")
