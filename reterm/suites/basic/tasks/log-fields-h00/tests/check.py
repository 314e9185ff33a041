import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/report.txt")
want = 'alice 4\nbruno 1\ndara 2\nemeka 1\njun 5\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"report.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/logs/kepler-access.log").encode()).hexdigest() != "c3a3f5d56de449ca72d9155929eb3fa3906af59aacf3899736a80f7a510bd66d":
    fail("the log was modified")
print("PASS")
