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
if got != {'ember': 204, 'umber': 42, 'delta': 78, 'quartz': 339}:
    fail(f"report.json is {got}, expected {'ember': 204, 'umber': 42, 'delta': 78, 'quartz': 339}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "43a8b1f73a6c961988ed7410e94091bf35b43cfd2b86d8d4b483eecc90d80f5f":
    fail("readings.csv was modified")
print("PASS")
