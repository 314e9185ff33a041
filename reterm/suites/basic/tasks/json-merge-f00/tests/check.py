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
want = {'regions': {'north': 21, 'alpine': 5, 'delta': 32, 'south': 8, 'east': 10}, 'hosts': 13, 'names': ['alpine-juniper', 'alpine-vertex', 'delta-nova', 'delta-tango', 'east-pixel', 'east-sierra', 'east-umber', 'north-lumen', 'north-pixel', 'north-raven', 'south-bravo', 'south-fjord', 'south-juniper']}
if got != want:
    fail(f"summary.json holds {got}, expected {want}")
for path, h in {'/app/exports/south-batch.json': '9bcfaecbd611bf7b8e29555d74619f3bf5c347461c88507e4507b9668e56c1bd', '/app/exports/north.json': '9e10864009efa11ebc0da58643966adfa3d9dd8f4a167a83ead530f32ddbb7b6', '/app/exports/alpine.json': 'a03a0da03c5c6a3fd718c92f9fcd6c2177d8c04638af5fffacdaecee3089ba92', '/app/exports/delta.json': 'be81de371d5ea280dd5069cb47fd4d92cc2e4e91d0a88f3e8c057a08b4b8f760'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != h:
        fail(f"{path} was modified")
print("PASS")
