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
want = 'dara 88336\nemeka 95733\nivo 45754\njun 51295\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"report.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/logs/tango-proxy.log").encode()).hexdigest() != "5045dcb1aac8422919b36e147197217fd79b3eb0996c9558f3dc18419f052081":
    fail("the log was modified")
print("PASS")
