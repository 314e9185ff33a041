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
if got != {'fjord': 255, 'cedar': 242, 'nova': 147, 'harbor': 243}:
    fail(f"report.json is {got}, expected {'fjord': 255, 'cedar': 242, 'nova': 147, 'harbor': 243}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "be695e8f18a71eca653f2b02fd85afcc26e91e9e216e5c2cd1a6a23a4094dbc8":
    fail("readings.csv was modified")
print("PASS")
