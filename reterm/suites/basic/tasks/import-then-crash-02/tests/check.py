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
if got != {'maple': 1335, 'quartz': 1725, 'harbor': 690, 'vertex': 515}:
    fail(f"report.json is {got}, expected {'maple': 1335, 'quartz': 1725, 'harbor': 690, 'vertex': 515}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "7952ee598cfe8a759a8969119da54191677e229fa7f64bb398838644c98919a5":
    fail("/app/data/readings.csv was modified")
if hashlib.sha256(read("/app/lib/readings4.py").encode()).hexdigest() != "e5c740684cc4903b30096c98182ec1d88393e3796a535ceca7db0c8d6759505f":
    fail("/app/lib/readings4.py was modified")
print("PASS")
