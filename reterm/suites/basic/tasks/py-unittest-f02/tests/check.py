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
if hashlib.sha256(read("/app/test_numtools3.py").encode()).hexdigest() != "a830aae4a98f9edcfcb28c586e676c9397f5f89ed35a4860f31c178038190349":
    fail("test_numtools3.py was modified")
r = subprocess.run([sys.executable, "-m", "unittest"], cwd="/app", capture_output=True, text=True,
                   timeout=60)
if r.returncode != 0 or "Ran 3 tests" not in r.stderr:
    fail("python3 -m unittest does not pass: " + r.stderr[-500:])
sys.path.insert(0, "/app")
from numtools3 import slugify, word_count, clamp
for name, args, want in [('slugify', (' umber INDIGO ',), 'umber-indigo'), ('slugify', ('a\tb',), 'a-b'), ('word_count', ('',), 0), ('word_count', ('quartz juniper delta gamma cedar ',), 5), ('clamp', (28, 1, 10), 10), ('clamp', (7, 7, 7), 7), ('clamp', (52, 0, 32), 32)]:
    got = globals()[name](*args)
    if got != want or type(got) != type(want):
        fail(f"{name}{tuple(args)!r} returned {got!r}, expected {want!r}")
print("PASS")
