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
want = 'category,orders,total\ngames,8,1768.61\nmusic,5,1709.53\ntools,1,481.32\ntoys,2,284.43\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"summary.csv is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/data/invoices.csv").encode()).hexdigest() != "635192319018a86616e60780dbbd846c8d553c7c7a1699df725709833441c3b8":
    fail("the data file was modified")
print("PASS")
