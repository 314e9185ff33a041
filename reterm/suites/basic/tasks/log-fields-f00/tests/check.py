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
want = 'dara 11\nfarah 22\nkofi 19\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"report.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/logs/sierra-gateway.log").encode()).hexdigest() != "fda8a2740043abeb1c4ed032103f69154301d8880548a1c52b30ae5f03a5c297":
    fail("the log was modified")
print("PASS")
