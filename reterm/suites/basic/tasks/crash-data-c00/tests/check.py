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
if got != {'quartz': 593, 'harbor': 224, 'ember': 96, 'orbit': 91}:
    fail(f"report.json is {got}, expected {'quartz': 593, 'harbor': 224, 'ember': 96, 'orbit': 91}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "1b1fbeade301a7b4fb925cfd9235a4b1adb7ee4d4eb395696e44931c0fe1e9df":
    fail("readings.csv was modified")
print("PASS")
