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
if got != {'orbit': 159, 'bravo': 386, 'juniper': 40, 'harbor': 121}:
    fail(f"report.json is {got}, expected {'orbit': 159, 'bravo': 386, 'juniper': 40, 'harbor': 121}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "7152d307481d516b627e06b334118049c211ec54a7647aa80a52512802c1e39c":
    fail("readings.csv was modified")
print("PASS")
