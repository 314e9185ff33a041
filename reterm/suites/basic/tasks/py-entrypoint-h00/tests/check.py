import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/totals_vertex.txt")
if got != 'ember: 36 x 7 = 252\ntango: 7 x 7 = 49\nlumen: 11 x 7 = 77\ngamma: 19 x 7 = 133\nkepler: 33 x 7 = 231\ntotal: 742 (ledgerlib 2.9)\n':
    fail(f"/app/totals_vertex.txt is {got!r}, expected 'ember: 36 x 7 = 252\ntango: 7 x 7 = 49\nlumen: 11 x 7 = 77\ngamma: 19 x 7 = 133\nkepler: 33 x 7 = 231\ntotal: 742 (ledgerlib 2.9)\n'")
for path, digest in {'/app/src/ledgerlib/__init__.py': '768b1c62e47393c65b042323ab95579553207b7ed075217dc223d1579c3a2e7c', '/app/src/ledgerlib/calc.py': 'ebc7a1f690f93b106169347eb37d3b1945ed3080928b2ae4144137cef2e21f05', '/app/src/ledgerlib/cli.py': '0859e0f264a0b44dddcbd739cd976ea60fbac797a35ae97a9999d3ea881bbff0'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
