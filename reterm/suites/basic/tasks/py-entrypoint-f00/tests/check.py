import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/stock_nova.txt")
if got != 'indigo: 15 x 3 = 45\nnova: 25 x 3 = 75\nraven: 6 x 3 = 18\nkepler: 23 x 3 = 69\nvertex: 19 x 3 = 57\ntotal: 264 (forecast_app 2.0)\n':
    fail(f"/app/stock_nova.txt is {got!r}, expected 'indigo: 15 x 3 = 45\nnova: 25 x 3 = 75\nraven: 6 x 3 = 18\nkepler: 23 x 3 = 69\nvertex: 19 x 3 = 57\ntotal: 264 (forecast_app 2.0)\n'")
for path, digest in {'/app/forecast_app/__init__.py': '33caabd872a4f14bb2b070aee960db23d802f2e3c77e79317decc0d13f79133a', '/app/forecast_app/core.py': 'df8872e72e0bd52c4dd2a7a908f8383759bf095ecbf04844a5fc91b94bda1184', '/app/forecast_app/run.py': '8bc35cef4d4b4dbfc5e72675211bacb851b3ffff14af750161f655d7c6e2da3d'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
