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
if got != "maple-api activate rf4e552 9d5d5e16eff0fbe2":
    fail(f"/app/state/activate.txt is {got!r}: not the right release")
if not os.access("/app/bin/activate", os.X_OK):
    fail("/app/bin/activate is still not executable")
if hashlib.sha256(read("/app/bin/activate").encode()).hexdigest() != "eb3f93e76d719f2d51331e465e0bba62af29518d249ff729b4609d4062522247":
    fail("/app/bin/activate was modified")
print("PASS")
