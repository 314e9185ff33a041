import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/team_counts.txt")
if got != '7 Tigers\n4 Red Sox\n2 Falcons\n1 Blue Jays\n':
    fail(f"/app/team_counts.txt is {got!r}: wrong counts, values or order")
if hashlib.sha256(read("/app/data/orders.csv").encode()).hexdigest() != "47198933543ad537236de526c4696488254265cff7a9a3ca43335584a1840aed":
    fail("/app/data/orders.csv was modified")
print("PASS")
