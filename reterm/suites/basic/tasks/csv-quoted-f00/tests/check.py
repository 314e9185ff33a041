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
want = 'category,orders,total\nkitchen,6,1158.82\nsports,8,2033.61\ntoys,8,2234.35\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"summary.csv is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/data/orders.csv").encode()).hexdigest() != "6639a76c737767f139c7fda4d990fdfe9c2612add8320dc3e4aabdde2ee23667":
    fail("the data file was modified")
print("PASS")
