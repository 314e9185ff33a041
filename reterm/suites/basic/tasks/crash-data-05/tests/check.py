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
if got != {'maple': 98, 'ember': 255, 'juniper': 188, 'gamma': 111}:
    fail(f"report.json is {got}, expected {'maple': 98, 'ember': 255, 'juniper': 188, 'gamma': 111}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "e54d3ae848086b1b970c1a6a627674d92f28379f07c52a2d2081c392c794c90b":
    fail("readings.csv was modified")
print("PASS")
