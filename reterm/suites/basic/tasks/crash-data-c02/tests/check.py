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
if got != {'orbit': 104, 'alpha': 141, 'indigo': 166, 'gamma': 95}:
    fail(f"report.json is {got}, expected {'orbit': 104, 'alpha': 141, 'indigo': 166, 'gamma': 95}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "519a49048bda4edeb1abe098f6c28e14b3370e48117afe791cfda5aa80ca45a7":
    fail("readings.csv was modified")
print("PASS")
