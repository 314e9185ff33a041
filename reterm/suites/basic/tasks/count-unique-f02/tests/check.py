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
want = '21 alice\n9 kofi\n6 bruno\n5 farah\n1 dara\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"counts.txt is {got!r}, expected {want!r}")
for name, h in {'/app/data/wed.txt': 'db87014de4359524dad2e5b1b288e96248fa2540efa9d6a2b75334a2aed11251', '/app/data/fri.txt': 'ab2c31a5386420d54409a770cace9c119579d53bd3b48896bfa56ffe77c8ac55'}.items():
    if hashlib.sha256(read(name).encode()).hexdigest() != h:
        fail(f"{name} was modified")
print("PASS")
