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
if got != {'gamma': 136, 'indigo': 204, 'orbit': 116, 'bravo': 35}:
    fail(f"report.json is {got}, expected {'gamma': 136, 'indigo': 204, 'orbit': 116, 'bravo': 35}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "f5c98d64d4c8f7757f47f6113ffae4e7969be983c3cbb9be01f3410457b1f820":
    fail("readings.csv was modified")
print("PASS")
