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
want = 'category,orders,total\nbooks,5,1714.44\ngames,5,1093.92\ngarden,4,964.55\nkitchen,4,1391.05\ntravel,5,1153.56\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"summary.csv is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/data/sales.csv").encode()).hexdigest() != "ca392599c54e22c269df0cccc1e764a699b83208748791c0667cb7816db53aa5":
    fail("the data file was modified")
print("PASS")
