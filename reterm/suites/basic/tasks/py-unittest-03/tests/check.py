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
if hashlib.sha256(read("/app/test_helpers9.py").encode()).hexdigest() != "a63e840f1158796a1ea59dfd108b52a93e24398ec89dff13367b4c76bf07c50c":
    fail("test_helpers9.py was modified")
r = subprocess.run([sys.executable, "-m", "unittest"], cwd="/app", capture_output=True, text=True,
                   timeout=60)
if r.returncode != 0 or "Ran 3 tests" not in r.stderr:
    fail("python3 -m unittest does not pass: " + r.stderr[-500:])
sys.path.insert(0, "/app")
from helpers9 import percent, is_leap, slugify
for name, args, want in [('percent', (2, 7), 28.6), ('percent', (15, 21), 71.4), ('is_leap', (1900,), False), ('is_leap', (2028,), True), ('slugify', (' gamma QUARTZ ',), 'gamma-quartz'), ('slugify', ('a\tb',), 'a-b'), ('is_leap', (2400,), True)]:
    got = globals()[name](*args)
    if got != want or type(got) != type(want):
        fail(f"{name}{tuple(args)!r} returned {got!r}, expected {want!r}")
print("PASS")
