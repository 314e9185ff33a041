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
want = {'regions': {'west': 36, 'east': 8, 'central': 4, 'delta': 18}, 'hosts': 10, 'names': ['central-alpha', 'central-juniper', 'central-maple', 'delta-delta', 'delta-raven', 'east-cedar', 'west-juniper', 'west-lumen', 'west-nova', 'west-umber']}
if got != want:
    fail(f"summary.json holds {got}, expected {want}")
for path, h in {'/app/exports/central.json': '5e4573707217689467be16452146ea2e417905f6c233cd43aaa676a6d2998ca3', '/app/exports/east.json': '87d3eaa92e1fbeaee31cdcceff63ad2c161ce5d3e50258609dca5f401aaea8e4', '/app/exports/west.json': 'ce8ba21a78f955a33498ad3c51f68b735502bf864614d5fd4cd55bc12b02807a', '/app/exports/delta.json': '4874db1747bdc52ad61a6ad9b3799452b7304907eab1dd681c4110f24a7efe2b'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != h:
        fail(f"{path} was modified")
print("PASS")
