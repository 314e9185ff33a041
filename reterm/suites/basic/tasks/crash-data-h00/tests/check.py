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
if got != {'fjord': 200, 'ember': 212, 'delta': 133, 'vertex': 113}:
    fail(f"report.json is {got}, expected {'fjord': 200, 'ember': 212, 'delta': 133, 'vertex': 113}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "b5029e180fd367e08b788ac47c68c8d80c4a3d20d4715c05c8515a18c9b048ff":
    fail("readings.csv was modified")
print("PASS")
