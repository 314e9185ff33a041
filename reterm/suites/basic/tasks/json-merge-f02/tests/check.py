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
    got = json.loads(read("/app/summary.json"))
except ValueError as e:
    fail(f"summary.json is not JSON: {e}")
want = {'regions': {'west': 11, 'alpine': 26, 'delta': 17, 'east': 10}, 'hosts': 12, 'names': ['alpine-bravo', 'alpine-kepler', 'alpine-maple', 'alpine-sierra', 'delta-maple', 'delta-raven', 'east-maple', 'east-pixel', 'west-cedar', 'west-indigo', 'west-kepler', 'west-vertex']}
if got != want:
    fail(f"summary.json holds {got}, expected {want}")
for path, h in {'/app/exports/west.json': '0616e2795d97b58de60c6ef53ace30aaf2a8fc363cd0f3e4dd0caa3e2334972a', '/app/exports/delta.json': '5298c0c6ff49979dac0f025cff4815b1087247f278cef25a2219389dafce1d7a', '/app/exports/east.json': 'c52e36eb22642309223027b52c9e6618339a1412ad83d788b8644fef97e88f0a', '/app/exports/alpine.json': '0185afce6b4315b5a21e90c6a058d50fbce20a403dbf8e7d73d35dc7e43035dd'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != h:
        fail(f"{path} was modified")
print("PASS")
