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
want = {'regions': {'north': 16, 'delta': 36, 'west': 25, 'south': 10, 'coast': 28}, 'hosts': 15, 'names': ['coast-gamma', 'coast-juniper', 'coast-umber', 'delta-ember', 'delta-gamma', 'delta-orbit', 'delta-raven', 'north-harbor', 'north-raven', 'north-tango', 'south-juniper', 'south-nova', 'west-delta', 'west-ember', 'west-indigo']}
if got != want:
    fail(f"summary.json holds {got}, expected {want}")
for path, h in {'/app/exports/coast.json': '33e72dcd9f3f7c58128fae57b18fe74def09379115e01ce230cc7d82d07bc79d', '/app/exports/north.json': 'eb794867636759c2fb83a1970e0bf62d02beb78246c1b586f902ca672906673e', '/app/exports/south.json': 'cbbf955afe028d307adfce59915990c7cca7f7545ec09fd131daecf5b9e9095d', '/app/exports/delta.json': '1e563aaaefbfc3fd20a7130c76cb649c8913344b51d774a6dccd74d0c97919a6', '/app/exports/west.json': 'f4a702611ee9041829e57ad2c49ac528a8d80318c6529a95f496bb00740b9ba9'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != h:
        fail(f"{path} was modified")
print("PASS")
