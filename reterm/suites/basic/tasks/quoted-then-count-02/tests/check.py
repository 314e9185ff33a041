import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/city_counts.txt")
if got != '8 Dakar\n7 Lima\n6 Perth\n5 Quito\n2 Turin\n1 Oslo\n':
    fail(f"/app/city_counts.txt is {got!r}: wrong counts, values or order")
if hashlib.sha256(read("/app/data/orders.csv").encode()).hexdigest() != "3f40cac4159358aba048cb4c0059731bd8aeaf7689d5a04b79a8026f0248e4b1":
    fail("/app/data/orders.csv was modified")
print("PASS")
