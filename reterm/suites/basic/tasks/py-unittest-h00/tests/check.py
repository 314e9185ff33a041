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
if hashlib.sha256(read("/app/test_numtools4.py").encode()).hexdigest() != "be3e8e4606600cf2019facfad414e10dfdce1c3f467cff9b2b76567e7e3fa17e":
    fail("test_numtools4.py was modified")
r = subprocess.run([sys.executable, "-m", "unittest"], cwd="/app", capture_output=True, text=True,
                   timeout=60)
if r.returncode != 0 or "Ran 3 tests" not in r.stderr:
    fail("python3 -m unittest does not pass: " + r.stderr[-500:])
sys.path.insert(0, "/app")
from numtools4 import slugify, word_count, chunks
for name, args, want in [('slugify', (' harbor RAVEN ',), 'harbor-raven'), ('slugify', ('a\tb',), 'a-b'), ('word_count', ('',), 0), ('word_count', ('fjord pixel nova orbit maple ',), 5), ('chunks', ([], 3), []), ('chunks', ([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], 3), [[7, 8, 9], [10, 11, 12], [13, 14, 15], [16, 17, 18], [19]]), ('word_count', ('delta  sierra end',), 3)]:
    got = globals()[name](*args)
    if got != want or type(got) != type(want):
        fail(f"{name}{tuple(args)!r} returned {got!r}, expected {want!r}")
print("PASS")
