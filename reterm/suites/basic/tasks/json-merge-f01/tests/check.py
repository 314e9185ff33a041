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
want = {'regions': {'central': 41, 'east': 8, 'north': 6, 'delta': 27}, 'hosts': 12, 'names': ['central-indigo', 'central-juniper', 'central-quartz', 'central-sierra', 'delta-harbor', 'delta-kepler', 'delta-nova', 'delta-raven', 'east-orbit', 'north-cedar', 'north-nova', 'north-umber']}
if got != want:
    fail(f"summary.json holds {got}, expected {want}")
for path, h in {'/app/exports/north.json': 'd20d88d54bf189833b348890d77f9e8a9f79398965aa8197423de120ae4e0a59', '/app/exports/east.json': '56c2a2dafd88c58ff9b9064a3a6b8da63eb643e830f57751520fd14d8f35ee4e', '/app/exports/central.json': 'f3c705b7f61c2685687dcc643646c1dd5c8e029c8207e8a6e6588ec36dd73af7', '/app/exports/delta.json': '7a0acfbfd01abc4303e2f299d74d7bcee51fb609c7841e0d2613c5d13c8dafcb'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != h:
        fail(f"{path} was modified")
print("PASS")
