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
if got != '9 garden, West\n6 kitchen, South\n5 toys, West\n4 tools, East\n3 books, South\n2 office, West\n':
    fail(f"/app/category_counts.txt is {got!r}: wrong counts, values or order")
if hashlib.sha256(read("/app/data/orders.csv").encode()).hexdigest() != "52916bcaa940cedca2bdfec936803dd03941a3f8d42b68ade5308287797da39d":
    fail("/app/data/orders.csv was modified")
print("PASS")
