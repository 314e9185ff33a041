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
want = 'category,orders,total\ngames,2,751.36\noffice,6,2104.57\nsports,3,342.45\ntools,2,452.52\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"summary.csv is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/data/purchases.csv").encode()).hexdigest() != "b918cfffa5174e0f4960bc382d3bbff2c8ba166926a94fb788055be4475d8898":
    fail("the data file was modified")
print("PASS")
