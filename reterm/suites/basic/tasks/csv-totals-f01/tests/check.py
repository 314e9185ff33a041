import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/totals.csv")
want = 'region,total\neast,2369\nnorth,1730\ncoast,1145\nsouth,967\ncentral,854\n'
if got != want:
    fail(f"totals.csv is {got!r}, expected {want!r}")
print("PASS")
