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
if got != {'cedar': 196, 'vertex': 421, 'raven': 179, 'tango': 39}:
    fail(f"report.json is {got}, expected {'cedar': 196, 'vertex': 421, 'raven': 179, 'tango': 39}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "ee43cc34bd45d4844955fc94d90ed25801e020d569acad7873cac98430302a43":
    fail("readings.csv was modified")
print("PASS")
