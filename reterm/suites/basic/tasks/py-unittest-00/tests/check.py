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
if hashlib.sha256(read("/app/test_toolkit2.py").encode()).hexdigest() != "06be43623eeefe8fc345cd6630a49fd405bb83d30af688419ba38e4b7e28967c":
    fail("test_toolkit2.py was modified")
r = subprocess.run([sys.executable, "-m", "unittest"], cwd="/app", capture_output=True, text=True,
                   timeout=60)
if r.returncode != 0 or "Ran 3 tests" not in r.stderr:
    fail("python3 -m unittest does not pass: " + r.stderr[-500:])
sys.path.insert(0, "/app")
from toolkit2 import word_count, chunks, percent
for name, args, want in [('word_count', ('',), 0), ('word_count', ('umber alpha maple sierra quartz ',), 5), ('chunks', ([], 3), []), ('chunks', ([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], 3), [[2, 3, 4], [5, 6, 7], [8, 9, 10], [11, 12, 13], [14, 15, 16], [17, 18, 19]]), ('percent', (2, 7), 28.6), ('percent', (17, 21), 81.0), ('word_count', ('vertex  umber end',), 3)]:
    got = globals()[name](*args)
    if got != want or type(got) != type(want):
        fail(f"{name}{tuple(args)!r} returned {got!r}, expected {want!r}")
print("PASS")
