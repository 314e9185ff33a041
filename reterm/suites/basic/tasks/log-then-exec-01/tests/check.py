import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/state/promote.txt").strip()
if got != "lumen-sync promote radfe55 ff40e082d09b7b0c":
    fail(f"/app/state/promote.txt is {got!r}: not the right release")
if not os.access("/app/bin/promote", os.X_OK):
    fail("/app/bin/promote is still not executable")
if hashlib.sha256(read("/app/bin/promote").encode()).hexdigest() != "72c519893f0371d3a3284d0e6d1c352de6174fd7a02a159cf27d3432f3416363":
    fail("/app/bin/promote was modified")
print("PASS")
