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
if hashlib.sha256(read("/app/test_textkit4.py").encode()).hexdigest() != "bc1df95ae27f65b59107bb656561c9b6d7395ce682447d838e01a6f4a79a61b4":
    fail("test_textkit4.py was modified")
r = subprocess.run([sys.executable, "-m", "unittest"], cwd="/app", capture_output=True, text=True,
                   timeout=60)
if r.returncode != 0 or "Ran 3 tests" not in r.stderr:
    fail("python3 -m unittest does not pass: " + r.stderr[-500:])
sys.path.insert(0, "/app")
from textkit4 import percent, chunks, word_count
for name, args, want in [('percent', (2, 7), 28.6), ('percent', (15, 21), 71.4), ('chunks', ([], 3), []), ('chunks', ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], 3), [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15], [16, 17, 18], [19]]), ('word_count', ('',), 0), ('word_count', ('maple sierra ',), 2), ('word_count', ('fjord  cedar end',), 3)]:
    got = globals()[name](*args)
    if got != want or type(got) != type(want):
        fail(f"{name}{tuple(args)!r} returned {got!r}, expected {want!r}")
print("PASS")
