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
if got != {'indigo': 330, 'delta': 138, 'lumen': 119, 'umber': 40}:
    fail(f"report.json is {got}, expected {'indigo': 330, 'delta': 138, 'lumen': 119, 'umber': 40}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "ac7527bec7f09c8335b0dc498a282cd8e399e32dc3f3f8035ea4f835a14c75e0":
    fail("readings.csv was modified")
print("PASS")
