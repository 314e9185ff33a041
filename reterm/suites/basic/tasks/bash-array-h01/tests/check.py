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
for path, content in {'data/results.txt': 'gamma loss\ngamma draw\nraven draw\nmaple win\nraven win\ngamma draw\ngamma win\ngamma win\ngamma loss\nraven draw\nraven draw\n', 'data/points.conf': '5 2\n'}.items():
    if read("/app/" + path) != content:
        fail(f"/app/{path} was changed")
want = 'raven played=4 points=11\ngamma played=6 points=14\nsierra played=0 points=0\nmaple played=1 points=5\n'
if read("/app/points.txt") != want:
    fail("/app/points.txt does not hold the standings")
try:
    res = subprocess.run(["/app/bin/league"], capture_output=True, text=True, timeout=30)
except (OSError, subprocess.TimeoutExpired) as e:
    fail(f"/app/bin/league cannot be run directly: {e}")
if res.returncode != 0 or res.stdout != want:
    fail(f"/app/bin/league run directly exits {res.returncode} ({res.stderr[-300:]!r}) or prints "
         f"wrong standings")
print("PASS")
