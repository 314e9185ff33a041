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
if got != {'lumen': 115, 'orbit': 248, 'cedar': 72, 'fjord': 20}:
    fail(f"report.json is {got}, expected {'lumen': 115, 'orbit': 248, 'cedar': 72, 'fjord': 20}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "8daddc6df0afdd4d7966016c9d44a5372bfbc16fc05ab2fde20c9cde92788467":
    fail("readings.csv was modified")
print("PASS")
