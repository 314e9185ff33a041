import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/category_counts.txt")
if got != '7 kitchen, North\n4 toys, West\n3 garden, South\n2 tools, West\n1 office, South\n':
    fail(f"/app/category_counts.txt is {got!r}: wrong counts, values or order")
if hashlib.sha256(read("/app/data/orders.csv").encode()).hexdigest() != "4e9e73ac949a9151176a6341a8de3db59701662d5c7c82efc66b46807e12c20c":
    fail("/app/data/orders.csv was modified")
print("PASS")
