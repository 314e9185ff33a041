import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

sys.path.insert(0, "/app")
try:
    from stats import median
except Exception as e:
    fail(f"cannot import median from /app/stats.py: {e}")
for args, want in [([3, 1, 2], 2), ([4, 1, 3, 2], 2.5), ([10, 20], 15.0), ([5], 5), ([7, 11, 8, 16], 9.5)]:
    got = median(*args) if isinstance(args, tuple) else median(args)
    if got != want:
        fail(f"median({args!r}) returned {got!r}, expected {want!r}")
print("PASS")
