import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/stock_indigo.txt")
if got != 'tango: 21 x 13 = 273\nfjord: 29 x 13 = 377\nnova: 17 x 13 = 221\ntotal: 871 (billingkit 3.0)\n':
    fail(f"/app/stock_indigo.txt is {got!r}, expected 'tango: 21 x 13 = 273\nfjord: 29 x 13 = 377\nnova: 17 x 13 = 221\ntotal: 871 (billingkit 3.0)\n'")
for path, digest in {'/app/billingkit/__init__.py': '180bed63338ac17b3d569d48c3de5ffe8deda810ea761885e942164f2735fb2c', '/app/billingkit/calc.py': '482ef9ad1182048921599fb48f03e632206ca9e2063373cc405ee0f387e39426', '/app/billingkit/run.py': '72174ca804356e70fe71be84e4552131525520744014db11f96eb86618fa7a1c'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
