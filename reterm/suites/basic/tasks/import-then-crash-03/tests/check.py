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
if got != {'pixel': 148, 'indigo': 532, 'gamma': 230, 'raven': 112}:
    fail(f"report.json is {got}, expected {'pixel': 148, 'indigo': 532, 'gamma': 230, 'raven': 112}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "99e3ded811a5a6b3895e24b75d944a8d56a41f4b88dbc828d3f784d5dd4ff2e7":
    fail("/app/data/readings.csv was modified")
if hashlib.sha256(read("/app/lib/rowtools9.py").encode()).hexdigest() != "8c011626f7681dcfb38ed846a5ac946024d710a53628923fb4f243fed05ab0ab":
    fail("/app/lib/rowtools9.py was modified")
print("PASS")
