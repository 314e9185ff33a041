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
want = 'category,orders,total\nkitchen,5,833.78\noffice,4,1399.05\nsports,7,1743.95\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"summary.csv is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/data/orders.csv").encode()).hexdigest() != "393490b864d3b4734f74b6b67075ba55f33979ed55a105b5407bf1e20868302a":
    fail("the data file was modified")
print("PASS")
