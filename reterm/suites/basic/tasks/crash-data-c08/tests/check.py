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
if got != {'cedar': 379, 'gamma': 449, 'pixel': 91, 'alpha': 204}:
    fail(f"report.json is {got}, expected {'cedar': 379, 'gamma': 449, 'pixel': 91, 'alpha': 204}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "ffca0c2bc6b8f8834c3f13ff7e8bdda3f425cccc1685598843c14d0d23f6a7f2":
    fail("readings.csv was modified")
print("PASS")
