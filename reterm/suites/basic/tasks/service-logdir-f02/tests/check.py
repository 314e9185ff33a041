import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/ember-summary.txt") != 'ember=1359\nharbor=547\njuniper=1619\n':
    fail("/app/out/ember-summary.txt is missing or wrong")
if "INFO ready" not in read("/app/log/ember.log"):
    fail("the service's log /app/log/ember.log does not show a successful start")
if hashlib.sha256(read("/app/bin/ember-svc").encode()).hexdigest() != "6af90d9a829f3bc41ff997951dce360ac1d552c7cbe193dda53464f99e163e3c":
    fail("the service was modified")
print("PASS")
