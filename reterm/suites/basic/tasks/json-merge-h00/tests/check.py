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
want = {'regions': {'south': 8, 'delta': 23, 'east': 30, 'west': 28}, 'hosts': 14, 'names': ['delta-fjord', 'delta-harbor', 'delta-juniper', 'delta-sierra', 'east-ember', 'east-harbor', 'east-nova', 'east-sierra', 'south-delta', 'south-raven', 'south-vertex', 'west-bravo', 'west-fjord', 'west-lumen']}
if got != want:
    fail(f"summary.json holds {got}, expected {want}")
for path, h in {'/app/exports/south.json': '04df54efd6cf43740cca90174205edcf0c37695e4956205fe22d493b3a5b2631', '/app/exports/east-batch.json': '99014bd5f9284539074f2b5feed8a8b81f2ca410c5eefdb08cefdafb346c333f', '/app/exports/delta.json': 'b94d47b3ab5be2c5b6107bbf80078dc871cc7bd297b0edcf8173b8b4b42f21d7'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != h:
        fail(f"{path} was modified")
print("PASS")
