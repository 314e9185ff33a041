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
for path, content in {'data/results.txt': 'maple Loss\nindigo draw\nindigo loss\number Loss\nmaple draw\nmaple Win\number loss\number draw\n', 'data/points.conf': '2 1\n'}.items():
    if read("/app/" + path) != content:
        fail(f"/app/{path} was changed")
want = 'indigo played=2 points=1\ngamma played=0 points=0\nmaple played=3 points=3\number played=3 points=1\n'
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
