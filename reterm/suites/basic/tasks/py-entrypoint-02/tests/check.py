import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/totals_kepler.txt")
if got != 'quartz: 13 x 16 = 208\nalpha: 19 x 16 = 304\nharbor: 17 x 16 = 272\npixel: 38 x 16 = 608\ngamma: 21 x 16 = 336\ntotal: 1728 (scoringkit 1.4)\n':
    fail(f"/app/totals_kepler.txt is {got!r}, expected 'quartz: 13 x 16 = 208\nalpha: 19 x 16 = 304\nharbor: 17 x 16 = 272\npixel: 38 x 16 = 608\ngamma: 21 x 16 = 336\ntotal: 1728 (scoringkit 1.4)\n'")
for path, digest in {'/app/src/scoringkit/__init__.py': '2cd78abced110af6ab66931a26b1a3cbeace3d41179098e5a3a4d0074cfb5e47', '/app/src/scoringkit/rules.py': '82a09d0becdd2fbe58d76d352afee377c0b53cd9ba123f2efdba6408149b788b', '/app/src/scoringkit/main.py': '5f3d90549482278e21e33e75c40b3594636578f2a9277a3d2a37ad2a3f0a0ea8'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
