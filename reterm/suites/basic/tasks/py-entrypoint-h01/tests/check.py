import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/usage_harbor.txt")
if got != 'cedar: 11 x 2 = 22\norbit: 14 x 2 = 28\nlumen: 14 x 2 = 28\nvertex: 30 x 2 = 60\ntotal: 138 (billingkit 2.0)\n':
    fail(f"/app/usage_harbor.txt is {got!r}, expected 'cedar: 11 x 2 = 22\norbit: 14 x 2 = 28\nlumen: 14 x 2 = 28\nvertex: 30 x 2 = 60\ntotal: 138 (billingkit 2.0)\n'")
for path, digest in {'/app/billingkit/__init__.py': '49788242c5de4581152fcb48547970f26aeafa20edaaaaf944993c5eec6adb23', '/app/billingkit/core.py': '00264c9fcda64d93ab422ed2f1142c99041e05d618ad7186ed8404e86ed87818', '/app/billingkit/report.py': '8e6f1c773a08f24be4eb2b78c48650f127b5193cf9132a7869782341b205ca92'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
