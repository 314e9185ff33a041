import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = 'delta 17\njuniper 11\nlumen 25\number 5\n'
got = read("/app/out/summary.txt")
if got != want:
    fail(f"summary.txt is {got!r}, expected {want!r}")
print("PASS")
