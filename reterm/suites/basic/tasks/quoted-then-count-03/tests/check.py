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
if got != '7 Owls, West\n4 Blue Jays, East\n3 Red Sox, East\n1 Tigers, West\n':
    fail(f"/app/team_counts.txt is {got!r}: wrong counts, values or order")
if hashlib.sha256(read("/app/data/orders.csv").encode()).hexdigest() != "79b3d0c1067b684f7c61f4501e274777cfda80f939936fff5ac75c8028f46649":
    fail("/app/data/orders.csv was modified")
print("PASS")
