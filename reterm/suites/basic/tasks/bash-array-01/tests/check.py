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
for path, content in {'data/results.txt': 'pixel draw\nsierra loss\nsierra win\nkepler win\nsierra draw\nmaple draw\nkepler win\nmaple win\npixel loss\npixel draw\nkepler win\nmaple win\nmaple win\n', 'data/points.conf': '3 1\n'}.items():
    if read("/app/" + path) != content:
        fail(f"/app/{path} was changed")
want = 'maple played=4 points=10\npixel played=3 points=2\nkepler played=3 points=9\nsierra played=3 points=4\n'
if read("/app/standings.txt") != want:
    fail("/app/standings.txt does not hold the standings")
try:
    res = subprocess.run(["/app/bin/scoreboard"], capture_output=True, text=True, timeout=30)
except (OSError, subprocess.TimeoutExpired) as e:
    fail(f"/app/bin/scoreboard cannot be run directly: {e}")
if res.returncode != 0 or res.stdout != want:
    fail(f"/app/bin/scoreboard run directly exits {res.returncode} ({res.stderr[-300:]!r}) or prints "
         f"wrong standings")
print("PASS")
