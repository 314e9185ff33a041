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
want = 'goran 41381\nhana 45718\nivo 72815\njun 67768\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"report.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/logs/quartz-proxy.log").encode()).hexdigest() != "4c604d57fb92a6e6ef17fa783ded0a6399a4fa2ec8c81b954ed6f05ad4630994":
    fail("the log was modified")
print("PASS")
