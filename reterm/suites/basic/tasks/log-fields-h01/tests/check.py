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
want = '/api/billing 3\n/api/export 9\n/api/health 5\n/api/orders 6\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"report.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/logs/vertex-access.log").encode()).hexdigest() != "e2b502eaadd430167bb5d151474f1d3747c7e8e8b2815bba88a9f61054c1d6fa":
    fail("the log was modified")
print("PASS")
