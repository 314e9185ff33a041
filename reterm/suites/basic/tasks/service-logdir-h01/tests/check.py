import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/pixel-summary.txt") != 'alpha=496\ndelta=877\nember=888\ntango=804\n':
    fail("/app/out/pixel-summary.txt is missing or wrong")
if "INFO ready" not in read("/app/var/log/pixel/pixel.log"):
    fail("the service's log /app/var/log/pixel/pixel.log does not show a successful start")
if hashlib.sha256(read("/app/bin/pixel-svc").encode()).hexdigest() != "83844a93b00ce992ab2f7ac70374c19558a6d83a2e9f4cae1988fae116fe1e74":
    fail("the service was modified")
print("PASS")
