import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/state/activate.txt").strip()
if got != "cedar-sync activate rff9348 10e6cb89e762b734":
    fail(f"/app/state/activate.txt is {got!r}: not the right release")
if not os.access("/app/bin/activate", os.X_OK):
    fail("/app/bin/activate is still not executable")
if hashlib.sha256(read("/app/bin/activate").encode()).hexdigest() != "1091e2fc6e780555552852cc6ddbf43f49ab80af1a47b666570c2e6b19ec139d":
    fail("/app/bin/activate was modified")
print("PASS")
