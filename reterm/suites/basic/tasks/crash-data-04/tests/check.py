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
if got != {'tango': 157, 'delta': 497, 'indigo': 54, 'quartz': 30}:
    fail(f"report.json is {got}, expected {'tango': 157, 'delta': 497, 'indigo': 54, 'quartz': 30}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "d542a31f918895a5881b812c0cd834a70a9b2d0b0fea743f55e4aaaa9cda070d":
    fail("readings.csv was modified")
print("PASS")
