import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/lumen-summary.txt") != 'delta=1416\nfjord=1301\ngamma=54\norbit=220\n':
    fail("/app/out/lumen-summary.txt is missing or wrong")
if "INFO ready" not in read("/app/log/lumen.log"):
    fail("the service's log /app/log/lumen.log does not show a successful start")
if hashlib.sha256(read("/app/bin/lumen-svc").encode()).hexdigest() != "15b8d9183176e9a7b40626fe6e80780ef173cdfba075008b145643bfe911ca76":
    fail("the service was modified")
print("PASS")
