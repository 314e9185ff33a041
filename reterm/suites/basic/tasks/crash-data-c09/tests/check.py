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
if got != {'cedar': 93, 'umber': 168, 'ember': 121, 'gamma': 269}:
    fail(f"report.json is {got}, expected {'cedar': 93, 'umber': 168, 'ember': 121, 'gamma': 269}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "10385f81c286147fa9800a74476a6bf4b45074ef1dc8607359206d3b99a43c52":
    fail("readings.csv was modified")
print("PASS")
