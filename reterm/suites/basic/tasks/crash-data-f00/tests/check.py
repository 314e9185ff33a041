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
if got != {'vertex': 161, 'delta': 232, 'pixel': 112, 'ember': 69}:
    fail(f"report.json is {got}, expected {'vertex': 161, 'delta': 232, 'pixel': 112, 'ember': 69}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "f0c9084960c3a8b2c81a09fd50bb7df1b6ab5bb43056cca19b197ae078a3a6b6":
    fail("readings.csv was modified")
print("PASS")
