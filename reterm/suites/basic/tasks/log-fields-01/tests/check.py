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
want = 'alice 12\nbruno 12\ndara 14\nivo 11\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"report.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/logs/umber-gateway.log").encode()).hexdigest() != "fa42630b7f61e31b73d30c19954b9d13bda7de772dbdf1c05d7f07b097977e4b":
    fail("the log was modified")
print("PASS")
