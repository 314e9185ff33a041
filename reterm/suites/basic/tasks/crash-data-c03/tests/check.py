import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

try:
    got = json.loads(read("/app/report.json"))
except ValueError as e:
    fail(f"report.json is not JSON: {e}")
if got != {'umber': 248, 'ember': 237, 'cedar': 139, 'maple': 158}:
    fail(f"report.json is {got}, expected {'umber': 248, 'ember': 237, 'cedar': 139, 'maple': 158}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "f696be26b0a91939d4225d41f50ff5de5d51586adeedb101a21ef9a6613099d1":
    fail("readings.csv was modified")
print("PASS")
