import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/summary.csv").replace("\r\n", "\n")
want = 'category,orders,total\ngames,6,1707.26\ngarden,10,1556.33\ntravel,3,352.56\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"summary.csv is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/data/purchases.csv").encode()).hexdigest() != "435ba93155a986ca47a6589eaf4239a7af7309933427d6378e0e73285f51ec14":
    fail("the data file was modified")
print("PASS")
