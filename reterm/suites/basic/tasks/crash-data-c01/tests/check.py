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
if got != {'nova': 195, 'vertex': 210, 'delta': 178, 'alpha': 168}:
    fail(f"report.json is {got}, expected {'nova': 195, 'vertex': 210, 'delta': 178, 'alpha': 168}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "1d8a2ee57e06250d6d7e92964af5af41fbcd024097b1a542716e097c701ba6b4":
    fail("readings.csv was modified")
print("PASS")
