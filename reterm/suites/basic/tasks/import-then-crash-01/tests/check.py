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
if got != {'tango': 615, 'kepler': 420, 'nova': 665, 'ember': 950}:
    fail(f"report.json is {got}, expected {'tango': 615, 'kepler': 420, 'nova': 665, 'ember': 950}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "0e0b12f6504241859c5d7ff853ebb6c30db850b706e12922fc8596d9638f73dc":
    fail("/app/data/readings.csv was modified")
if hashlib.sha256(read("/app/lib/rowtools6.py").encode()).hexdigest() != "3ee561de312771c35971a5890e74cdef4c906c755f2992989f7fe96dd751d3c4":
    fail("/app/lib/rowtools6.py was modified")
print("PASS")
