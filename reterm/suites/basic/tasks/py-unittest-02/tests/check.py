import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import subprocess
if hashlib.sha256(read("/app/test_utilbox9.py").encode()).hexdigest() != "2a9870d80e3b910eccb116329a1511f58104e793cfbb45a071c6c217dda12917":
    fail("test_utilbox9.py was modified")
r = subprocess.run([sys.executable, "-m", "unittest"], cwd="/app", capture_output=True, text=True,
                   timeout=60)
if r.returncode != 0 or "Ran 3 tests" not in r.stderr:
    fail("python3 -m unittest does not pass: " + r.stderr[-500:])
sys.path.insert(0, "/app")
from utilbox9 import percent, clamp, is_leap
for name, args, want in [('percent', (2, 7), 28.6), ('percent', (19, 21), 90.5), ('clamp', (60, 1, 10), 10), ('clamp', (7, 7, 7), 7), ('is_leap', (1900,), False), ('is_leap', (1996,), True), ('clamp', (81, 0, 23), 23)]:
    got = globals()[name](*args)
    if got != want or type(got) != type(want):
        fail(f"{name}{tuple(args)!r} returned {got!r}, expected {want!r}")
print("PASS")
