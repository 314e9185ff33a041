import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/quartz-summary.txt") != 'alpha=528\nkepler=2024\nsierra=1383\n':
    fail("/app/out/quartz-summary.txt is missing or wrong")
if "INFO ready" not in read("/app/log/quartz.log"):
    fail("the service's log /app/log/quartz.log does not show a successful start")
if hashlib.sha256(read("/app/bin/quartz-svc").encode()).hexdigest() != "4283bd575236047dc3514b7c0f618347c8a278c8345c75c9e1ad6b434d5ff849":
    fail("the service was modified")
print("PASS")
