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
if got != {'alpha': 103, 'kepler': 182, 'ember': 186, 'harbor': 80}:
    fail(f"report.json is {got}, expected {'alpha': 103, 'kepler': 182, 'ember': 186, 'harbor': 80}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "fcaa32c0a340a9b21653f7f273e635ebd3522ecf79d2e7a949104ac405c3adfa":
    fail("readings.csv was modified")
print("PASS")
