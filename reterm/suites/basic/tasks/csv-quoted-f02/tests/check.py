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
want = 'category,orders,total\nbooks,3,763.96\ngames,2,427.62\nkitchen,4,684.97\noffice,1,108.35\ntoys,4,882.72\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"summary.csv is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/data/sales.csv").encode()).hexdigest() != "d149ea078994196dde97a5230a3ec8e536a1965b073a7fdbf003b82e112c76c5":
    fail("the data file was modified")
print("PASS")
