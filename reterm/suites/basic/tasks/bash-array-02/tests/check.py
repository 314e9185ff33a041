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
for path, content in {'data/results.txt': 'pixel win\npixel loss\ntango draw\nindigo loss\npixel Loss\ntango draw\npixel draw\ntango loss\ntango draw\ntango Loss\nindigo draw\nindigo Win\n', 'data/points.conf': '2 1\n', 'etc/standings.conf': 'teams="indigo pixel tango"\n'}.items():
    if read("/app/" + path) != content:
        fail(f"/app/{path} was changed")
want = 'indigo played=3 points=3\npixel played=4 points=3\ntango played=5 points=3\n'
if read("/app/table.txt") != want:
    fail("/app/table.txt does not hold the standings")
try:
    res = subprocess.run(["/app/bin/standings"], capture_output=True, text=True, timeout=30)
except (OSError, subprocess.TimeoutExpired) as e:
    fail(f"/app/bin/standings cannot be run directly: {e}")
if res.returncode != 0 or res.stdout != want:
    fail(f"/app/bin/standings run directly exits {res.returncode} ({res.stderr[-300:]!r}) or prints "
         f"wrong standings")
print("PASS")
