import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/totals_umber.txt")
if got != 'indigo: 3 x 2 = 6\ngamma: 11 x 2 = 22\nember: 11 x 2 = 22\number: 21 x 2 = 42\nsierra: 21 x 2 = 42\njuniper: 13 x 2 = 26\ntotal: 160 (billing 3.2)\n':
    fail(f"/app/totals_umber.txt is {got!r}, expected 'indigo: 3 x 2 = 6\ngamma: 11 x 2 = 22\nember: 11 x 2 = 22\number: 21 x 2 = 42\nsierra: 21 x 2 = 42\njuniper: 13 x 2 = 26\ntotal: 160 (billing 3.2)\n'")
for path, digest in {'/app/billing/__init__.py': '8fcf85c7a14efdf4ac1dc9ece2aa7b7d170df81436c7a261fce62b4d907af65c', '/app/billing/model.py': '00264c9fcda64d93ab422ed2f1142c99041e05d618ad7186ed8404e86ed87818', '/app/billing/cli.py': 'cf2ad2e208d089c93ca460466167ec6c2ac1b1a3aef75ad164c89663d6b26bbd'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
