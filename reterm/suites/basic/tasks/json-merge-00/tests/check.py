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
want = {'regions': {'alpine': 20, 'delta': 26, 'east': 30, 'west': 3, 'south': 23}, 'hosts': 15, 'names': ['alpine-fjord', 'alpine-gamma', 'delta-kepler', 'delta-maple', 'delta-tango', 'east-bravo', 'east-pixel', 'east-quartz', 'east-umber', 'south-orbit', 'south-quartz', 'south-tango', 'south-umber', 'west-gamma', 'west-juniper']}
if got != want:
    fail(f"summary.json holds {got}, expected {want}")
for path, h in {'/app/exports/west.json': 'd7b7779adbab804d00b56f396698c25b88aa22865097d7ed939c91a383acb58e', '/app/exports/south.json': '15c3c007ba7aa43a79deac5bfc5cadcaab21f04962e95fa048c50ddaa4cea8f0', '/app/exports/east.json': '3bf8a086b7fb9cb70436380ed8a1d76649bf8f29e24486e65d0d948807be92db', '/app/exports/alpine.json': '4bb2ac6f2cecfa69e8ccf88367a6135a6279d1890048acf363e6bdb6634e4d16', '/app/exports/delta.json': '8264fd53a419366bd684235434a31829b57e9243d706d08784cdbb0d4912a05c'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != h:
        fail(f"{path} was modified")
print("PASS")
