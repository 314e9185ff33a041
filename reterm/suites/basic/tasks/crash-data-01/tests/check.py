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
if got != {'tango': 317, 'cedar': 171, 'ember': 210, 'umber': 105}:
    fail(f"report.json is {got}, expected {'tango': 317, 'cedar': 171, 'ember': 210, 'umber': 105}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "bb5864ee5be775e92243ec21e1d8fd01326bcdefbd2410a6abb43e5f3f0a49bf":
    fail("readings.csv was modified")
print("PASS")
