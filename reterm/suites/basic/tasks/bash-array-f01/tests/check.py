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
for path, content in {'data/results.txt': 'ember win\nmaple loss\nmaple win\nmaple draw\nember win\nindigo draw\nember win\nindigo draw\nindigo loss\n', 'data/points.conf': '3 1\n'}.items():
    if read("/app/" + path) != content:
        fail(f"/app/{path} was changed")
want = 'ember played=3 points=9\nmaple played=3 points=4\nindigo played=3 points=2\n'
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
