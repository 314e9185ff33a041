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
if got != {'kepler': 275, 'maple': 253, 'lumen': 169, 'nova': 43}:
    fail(f"report.json is {got}, expected {'kepler': 275, 'maple': 253, 'lumen': 169, 'nova': 43}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "9257bbc1f611da900aa6de1d1ff7a29d79bba40076ee9f5879ce4c0f86b8c189":
    fail("readings.csv was modified")
print("PASS")
