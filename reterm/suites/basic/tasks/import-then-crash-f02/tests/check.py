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
if got != {'fjord': 428, 'bravo': 434, 'tango': 212, 'gamma': 146}:
    fail(f"report.json is {got}, expected {'fjord': 428, 'bravo': 434, 'tango': 212, 'gamma': 146}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "15251f7befd4dafff50d308b404e116b1050bcfe7d9b96f313da8940f3abb867":
    fail("/app/data/readings.csv was modified")
if hashlib.sha256(read("/app/lib/records2.py").encode()).hexdigest() != "f0afb669ac78f00d55f21408c9a87effd954ccf0a32a67727522411341d81f19":
    fail("/app/lib/records2.py was modified")
print("PASS")
