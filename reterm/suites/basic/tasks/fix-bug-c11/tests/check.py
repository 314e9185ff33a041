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
    from stats import inclusive_range
except Exception as e:
    fail(f"cannot import inclusive_range from /app/stats.py: {e}")
for args, want in [((1, 3), [1, 2, 3]), ((5, 5), [5]), ((0, 1), [0, 1]), ((7, 9), [7, 8, 9])]:
    got = inclusive_range(*args) if isinstance(args, tuple) else inclusive_range(args)
    if got != want:
        fail(f"inclusive_range({args!r}) returned {got!r}, expected {want!r}")
print("PASS")
