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
for path, content in {'data/results.txt': 'raven win\njuniper draw\ntango loss\nraven loss\njuniper win\nraven win\ntango win\nraven win\njuniper loss\njuniper win\njuniper draw\nraven loss\ntango win\n', 'data/points.conf': '3 0\n', 'etc/league.conf': 'teams="tango juniper raven"\n'}.items():
    if read("/app/" + path) != content:
        fail(f"/app/{path} was changed")
want = 'tango played=3 points=6\njuniper played=5 points=6\nraven played=5 points=9\n'
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
