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
if got != {'tango': 692, 'indigo': 756, 'harbor': 756, 'ember': 1140}:
    fail(f"report.json is {got}, expected {'tango': 692, 'indigo': 756, 'harbor': 756, 'ember': 1140}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "7966080a21356e123889eecfb86ad2664e502d681863fa2a2e7220aaf7d9dfaf":
    fail("/app/data/readings.csv was modified")
if hashlib.sha256(read("/app/lib/records3.py").encode()).hexdigest() != "17db415cbacb78db6498a820b87512aee7cb31cffd09c53a668d54214ec51e5e":
    fail("/app/lib/records3.py was modified")
print("PASS")
