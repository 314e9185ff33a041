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
for path, content in {'data/results.txt': 'lumen win\nlumen win\nharbor win\nlumen draw\nlumen loss\norbit win\njuniper win\norbit Win\nharbor draw\nharbor Win\norbit win\njuniper draw\njuniper Draw\nharbor draw\nlumen Win\njuniper Draw\n', 'data/points.conf': '2 1\n'}.items():
    if read("/app/" + path) != content:
        fail(f"/app/{path} was changed")
want = 'juniper played=4 points=5\norbit played=3 points=6\nharbor played=4 points=6\nlumen played=5 points=7\n'
if read("/app/points.txt") != want:
    fail("/app/points.txt does not hold the standings")
try:
    res = subprocess.run(["/app/bin/scoreboard"], capture_output=True, text=True, timeout=30)
except (OSError, subprocess.TimeoutExpired) as e:
    fail(f"/app/bin/scoreboard cannot be run directly: {e}")
if res.returncode != 0 or res.stdout != want:
    fail(f"/app/bin/scoreboard run directly exits {res.returncode} ({res.stderr[-300:]!r}) or prints "
         f"wrong standings")
print("PASS")
