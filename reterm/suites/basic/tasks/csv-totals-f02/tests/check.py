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
want = 'region,total\ncentral,2506\nnorth,2240\neast,1950\ncoast,1751\nwest,1026\n'
if got != want:
    fail(f"totals.csv is {got!r}, expected {want!r}")
print("PASS")
