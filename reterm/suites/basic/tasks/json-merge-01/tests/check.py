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
want = {'regions': {'west': 20, 'south': 25, 'coast': 20, 'delta': 17}, 'hosts': 13, 'names': ['coast-bravo', 'coast-delta', 'coast-orbit', 'delta-bravo', 'delta-cedar', 'delta-harbor', 'delta-orbit', 'south-fjord', 'south-juniper', 'south-lumen', 'west-delta', 'west-ember', 'west-kepler']}
if got != want:
    fail(f"summary.json holds {got}, expected {want}")
for path, h in {'/app/exports/south.json': '456fa09b29fc1767931647cf3b621a4912e3a01e986a451245d2d60edf90f8a7', '/app/exports/coast.json': 'd1f44682141e38ef2581b072851f846a282dbc1dad2795d1c5080afdc1b28502', '/app/exports/west.json': '1509c1f800f48e19769fd15cabe5078f6f70c47ecddc472c9acbd030cf171e16', '/app/exports/delta.json': '417ef617d73c2d3ac1cfd16cca1cc8ca6f43190fbe1bdf49e3cdd7fd8b4436b8'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != h:
        fail(f"{path} was modified")
print("PASS")
