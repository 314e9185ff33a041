import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/usage_alpha.txt")
if got != 'tango: 35 x 15 = 525\nfjord: 37 x 15 = 555\nvertex: 8 x 15 = 120\nquartz: 26 x 15 = 390\ntotal: 1590 (scoringkit 2.12)\n':
    fail(f"/app/usage_alpha.txt is {got!r}, expected 'tango: 35 x 15 = 525\nfjord: 37 x 15 = 555\nvertex: 8 x 15 = 120\nquartz: 26 x 15 = 390\ntotal: 1590 (scoringkit 2.12)\n'")
for path, digest in {'/app/scoringkit/__init__.py': '49ab721aa02d620cce8bd86933c7e252b273d3b7328e6ab8053eb29cc56174fe', '/app/scoringkit/calc.py': 'a17e7ab046a78c7112800f887caf65e26c5fc1c7f025c831c5cd71dbcf56495a', '/app/scoringkit/tools/cli.py': 'f9d5beb0cf62964f25d8ffe1d7c51e0fca30e3708dd54b723536a681ec6f9d19', '/app/scoringkit/tools/__init__.py': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
