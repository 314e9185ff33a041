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
for path, content in {'data/results.txt': 'bravo loss\nbravo win\number loss\ncedar draw\number draw\number win\ndelta win\nbravo win\nbravo loss\ndelta loss\ncedar win\ncedar win\ncedar draw\nbravo draw\ndelta win\n', 'data/points.conf': '3 1\n'}.items():
    if read("/app/" + path) != content:
        fail(f"/app/{path} was changed")
want = 'umber played=3 points=4\ncedar played=4 points=8\ndelta played=3 points=6\nbravo played=5 points=7\n'
if read("/app/points.txt") != want:
    fail("/app/points.txt does not hold the standings")
try:
    res = subprocess.run(["/app/bin/standings"], capture_output=True, text=True, timeout=30)
except (OSError, subprocess.TimeoutExpired) as e:
    fail(f"/app/bin/standings cannot be run directly: {e}")
if res.returncode != 0 or res.stdout != want:
    fail(f"/app/bin/standings run directly exits {res.returncode} ({res.stderr[-300:]!r}) or prints "
         f"wrong standings")
print("PASS")
