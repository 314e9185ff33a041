import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/orbit-summary.txt") != 'gamma=384\nindigo=436\nnova=439\nsierra=653\nvertex=382\n':
    fail("/app/out/orbit-summary.txt is missing or wrong")
if "INFO ready" not in read("/app/var/log/orbit/orbit.log"):
    fail("the service's log /app/var/log/orbit/orbit.log does not show a successful start")
if hashlib.sha256(read("/app/bin/orbit-svc").encode()).hexdigest() != "699b285893b8324533e6666297f31ddd9a2da7f73306273773864fe22e29a8ac":
    fail("the service was modified")
print("PASS")
