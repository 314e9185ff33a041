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
want = 'category,orders,total\ngarden,3,407.05\nkitchen,6,868.73\noffice,5,1042.39\ntravel,4,1045.39\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"summary.csv is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/data/invoices.csv").encode()).hexdigest() != "604cca5f1cc2b960082b9a64c6ad2e620c1c0abda7f31e2f14227c99238e250e":
    fail("the data file was modified")
print("PASS")
