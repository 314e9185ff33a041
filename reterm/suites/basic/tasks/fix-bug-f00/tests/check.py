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
    from stats import mean
except Exception as e:
    fail(f"cannot import mean from /app/stats.py: {e}")
for args, want in [([2, 2, 2], 2), ([1, 2], 1.5), ([1, 2, 3, 5], 2.75), ([6, 7], 6.5)]:
    got = mean(*args) if isinstance(args, tuple) else mean(args)
    if got != want:
        fail(f"mean({args!r}) returned {got!r}, expected {want!r}")
print("PASS")
