import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/counts.txt")
want = '25 ember\n23 orbit\n18 kepler\n17 lumen\n9 maple\n5 bravo\n2 cedar\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"counts.txt is {got!r}, expected {want!r}")
for name, h in {'/app/data/mon.txt': 'edfc2761c0631faad10d73193d56b354b167f55f487c8b50f6c8260e1cf49ba1'}.items():
    if hashlib.sha256(read(name).encode()).hexdigest() != h:
        fail(f"{name} was modified")
print("PASS")
