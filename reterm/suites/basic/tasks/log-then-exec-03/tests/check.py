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
if got != "orbit-worker publish r337e53 266fc44522235125":
    fail(f"/app/state/publish.txt is {got!r}: not the right release")
if not os.access("/app/bin/publish", os.X_OK):
    fail("/app/bin/publish is still not executable")
if hashlib.sha256(read("/app/bin/publish").encode()).hexdigest() != "86a02c774303d997f1564664c8e52f70d23ec97a1626f282440e404a6a53c96d":
    fail("/app/bin/publish was modified")
print("PASS")
