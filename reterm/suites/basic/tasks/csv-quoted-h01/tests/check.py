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
want = 'category,orders,total\nbooks,9,1837.62\ngames,10,2365.50\ngarden,4,1267.37\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"summary.csv is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/data/invoices.csv").encode()).hexdigest() != "521b751a86d2c173892f9d71f3aa13cc6f27587ce9b97f8a97e9a23689f7c466":
    fail("the data file was modified")
print("PASS")
