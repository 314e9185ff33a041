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
if got != {'ember': 190, 'fjord': 246, 'orbit': 388, 'alpha': 72}:
    fail(f"report.json is {got}, expected {'ember': 190, 'fjord': 246, 'orbit': 388, 'alpha': 72}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "7b5002b5a9af0ff5bac06563c053a62aa179254c5b8cb4514ed0bdb472d5bebb":
    fail("readings.csv was modified")
print("PASS")
