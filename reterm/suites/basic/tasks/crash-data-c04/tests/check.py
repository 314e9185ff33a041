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
if got != {'vertex': 165, 'lumen': 25, 'bravo': 192, 'juniper': 312}:
    fail(f"report.json is {got}, expected {'vertex': 165, 'lumen': 25, 'bravo': 192, 'juniper': 312}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "0804b776ecb8b52c9aee3b102caca2abad0ffb74a3becf622a8c15500d7f6bd6":
    fail("readings.csv was modified")
print("PASS")
