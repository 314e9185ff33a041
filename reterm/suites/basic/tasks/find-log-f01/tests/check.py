import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/error_count.txt").strip()
if got != "11":
    fail(f"expected 11 ERROR lines, found {got!r}")
print("PASS")
