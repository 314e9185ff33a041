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
if got != {'pixel': 262, 'quartz': 172, 'sierra': 165, 'raven': 95}:
    fail(f"report.json is {got}, expected {'pixel': 262, 'quartz': 172, 'sierra': 165, 'raven': 95}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "337500e511d9342192fb6807a863c3635e2503e9fa9837430701bd49d1a5d6b7":
    fail("readings.csv was modified")
print("PASS")
