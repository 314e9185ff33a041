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
if got != '9 Red Sox, South\n5 Tigers, North\n4 Falcons, West\n1 Blue Jays, East\n':
    fail(f"/app/team_counts.txt is {got!r}: wrong counts, values or order")
if hashlib.sha256(read("/app/data/orders.csv").encode()).hexdigest() != "ad2e016a839737543dba32c4d23588c8f4a260653e0028970a56a41f47d4ed27":
    fail("/app/data/orders.csv was modified")
print("PASS")
