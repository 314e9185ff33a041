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
if hashlib.sha256(read("/app/test_textkit4.py").encode()).hexdigest() != "fc4a45aace8f5d45de66f0849abe47db504c660a9a13c7b642b664d025408818":
    fail("test_textkit4.py was modified")
r = subprocess.run([sys.executable, "-m", "unittest"], cwd="/app", capture_output=True, text=True,
                   timeout=60)
if r.returncode != 0 or "Ran 3 tests" not in r.stderr:
    fail("python3 -m unittest does not pass: " + r.stderr[-500:])
sys.path.insert(0, "/app")
from textkit4 import clamp, word_count, chunks
for name, args, want in [('clamp', (75, 1, 10), 10), ('clamp', (7, 7, 7), 7), ('word_count', ('',), 0), ('word_count', ('vertex maple cedar lumen quartz ',), 5), ('chunks', ([], 3), []), ('chunks', ([7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], 3), [[7, 8, 9], [10, 11, 12], [13, 14, 15], [16, 17, 18], [19]]), ('clamp', (79, 0, 33), 33)]:
    got = globals()[name](*args)
    if got != want or type(got) != type(want):
        fail(f"{name}{tuple(args)!r} returned {got!r}, expected {want!r}")
print("PASS")
