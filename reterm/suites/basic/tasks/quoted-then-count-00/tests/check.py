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
if got != '8 Tigers\n3 Owls\n2 Falcons\n1 Otters\n':
    fail(f"/app/team_counts.txt is {got!r}: wrong counts, values or order")
if hashlib.sha256(read("/app/data/orders.csv").encode()).hexdigest() != "816888001b406b251fbc1cda09d27031358e0d2c7b2d5d7358593e3868bc22ef":
    fail("/app/data/orders.csv was modified")
print("PASS")
