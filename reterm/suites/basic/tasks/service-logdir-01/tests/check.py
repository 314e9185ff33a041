import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/delta-summary.txt") != 'harbor=447\nindigo=962\nkepler=204\nlumen=291\nnova=326\n':
    fail("/app/out/delta-summary.txt is missing or wrong")
if "INFO ready" not in read("/app/var/log/delta/delta.log"):
    fail("the service's log /app/var/log/delta/delta.log does not show a successful start")
if hashlib.sha256(read("/app/bin/delta-svc").encode()).hexdigest() != "acbe3ec4d3f52fae9ede81f282319bafae7d73fbf0fdeb93ee63def535faa98a":
    fail("the service was modified")
print("PASS")
