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
if hashlib.sha256(read("/app/test_helpers7.py").encode()).hexdigest() != "3122e9a2860bc7f60edc5295bbc834f68c51501cf0995383a095a4e94a4f1dd2":
    fail("test_helpers7.py was modified")
r = subprocess.run([sys.executable, "-m", "unittest"], cwd="/app", capture_output=True, text=True,
                   timeout=60)
if r.returncode != 0 or "Ran 3 tests" not in r.stderr:
    fail("python3 -m unittest does not pass: " + r.stderr[-500:])
sys.path.insert(0, "/app")
from helpers7 import chunks, is_leap, word_count
for name, args, want in [('chunks', ([], 3), []), ('chunks', ([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19], 4), [[5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16], [17, 18, 19]]), ('is_leap', (1900,), False), ('is_leap', (2028,), True), ('word_count', ('',), 0), ('word_count', ('lumen nova pixel harbor alpha ',), 5), ('word_count', ('juniper  harbor end',), 3)]:
    got = globals()[name](*args)
    if got != want or type(got) != type(want):
        fail(f"{name}{tuple(args)!r} returned {got!r}, expected {want!r}")
print("PASS")
