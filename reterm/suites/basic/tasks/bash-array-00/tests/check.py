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
for path, content in {'data/results.txt': 'kepler loss\nvertex draw\nraven loss\njuniper draw\njuniper loss\nraven loss\njuniper loss\nkepler draw\n', 'data/points.conf': '3 1\n'}.items():
    if read("/app/" + path) != content:
        fail(f"/app/{path} was changed")
want = 'juniper played=3 points=1\nkepler played=2 points=1\nraven played=2 points=0\nvertex played=1 points=1\n'
if read("/app/standings.txt") != want:
    fail("/app/standings.txt does not hold the standings")
try:
    res = subprocess.run(["/app/bin/standings"], capture_output=True, text=True, timeout=30)
except (OSError, subprocess.TimeoutExpired) as e:
    fail(f"/app/bin/standings cannot be run directly: {e}")
if res.returncode != 0 or res.stdout != want:
    fail(f"/app/bin/standings run directly exits {res.returncode} ({res.stderr[-300:]!r}) or prints "
         f"wrong standings")
print("PASS")
