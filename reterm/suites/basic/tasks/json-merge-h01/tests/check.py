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
want = {'regions': {'south': 4, 'north': 14, 'east': 27, 'alpine': 17, 'central': 0}, 'hosts': 15, 'names': ['alpine-alpha', 'alpine-cedar', 'alpine-harbor', 'alpine-kepler', 'east-bravo', 'east-juniper', 'east-nova', 'east-sierra', 'north-ember', 'north-gamma', 'north-nova', 'north-tango', 'south-juniper', 'south-kepler', 'south-vertex']}
if got != want:
    fail(f"summary.json holds {got}, expected {want}")
for path, h in {'/app/exports/south.json': 'd6e84c2a2916d60da801e2d00ae213d700a2a478af78f2d3fa5559b59c1249be', '/app/exports/east.json': '2f592ded7f8618218e9d9ed6671fe8ea87a5228b8af655d9e2ddd11cb2cf8111', '/app/exports/alpine.json': 'a78b90007db4f11185d61687a1992b2ba860a15bab8f4827d5bb6a2141a101e5', '/app/exports/north.json': 'ca68cf516135ea6499a0ff2c5c5e4842de6fd346ee425b89b674a35df05f505e', '/app/exports/central.json': 'f0d8757b4f29d63a035a606b54a11469e1e95f1571fc95da2b488bb6067bfe66'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != h:
        fail(f"{path} was modified")
print("PASS")
