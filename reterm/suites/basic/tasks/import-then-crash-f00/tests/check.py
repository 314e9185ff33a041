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
if got != {'bravo': 208, 'vertex': 1004, 'tango': 1304, 'orbit': 776}:
    fail(f"report.json is {got}, expected {'bravo': 208, 'vertex': 1004, 'tango': 1304, 'orbit': 776}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "c89abd04247f735854a7fe8ae2d05836f83e6a792bd1f8e364f4f402b56aec6d":
    fail("/app/data/readings.csv was modified")
if hashlib.sha256(read("/app/lib/parsing1.py").encode()).hexdigest() != "17db415cbacb78db6498a820b87512aee7cb31cffd09c53a668d54214ec51e5e":
    fail("/app/lib/parsing1.py was modified")
print("PASS")
