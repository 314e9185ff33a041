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
want = 'alice 48407\nhana 99915\nlena 123090\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"report.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/logs/fjord-proxy.log").encode()).hexdigest() != "692da025334eb3db507b89d076c4920d88869bf4544431578ac472b158975ddf":
    fail("the log was modified")
print("PASS")
