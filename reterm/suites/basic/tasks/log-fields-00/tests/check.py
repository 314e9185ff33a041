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
want = '/api/health 73637\n/api/items 13919\n/api/login 44875\n/api/orders 51943\n/api/search 21698\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"report.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/logs/alpha-access.log").encode()).hexdigest() != "b533811ef07caee98b988db590214dcc7dc47fd32549a24fe9a1fde9e0e2df64":
    fail("the log was modified")
print("PASS")
