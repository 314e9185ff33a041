import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/state/publish.txt").strip()
if got != "cedar-sync publish r62c9de ed590e1951dbf344":
    fail(f"/app/state/publish.txt is {got!r}: not the right release")
if not os.access("/app/bin/publish", os.X_OK):
    fail("/app/bin/publish is still not executable")
if hashlib.sha256(read("/app/bin/publish").encode()).hexdigest() != "69f9d0a70b99c5e9cd2f044783b727263bf103e532b438111bddcb7c5876878f":
    fail("/app/bin/publish was modified")
print("PASS")
