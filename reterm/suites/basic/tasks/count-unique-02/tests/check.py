import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/counts.txt")
want = '18 farah\n17 lena\n16 kofi\n15 bruno\n11 goran\n10 alice\n5 emeka\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"counts.txt is {got!r}, expected {want!r}")
for name, h in {'/app/data/wed.txt': '8ccfb2c10daba61b2480337d12ecf1bf655fb5714b14cb111ed0b6355e48d2c2', '/app/data/mon.txt': '9d164a1f86a1cf5a16ec3bd0a896c2a2c24dc8b12a18501e03cd8a1fcee2a501'}.items():
    if hashlib.sha256(read(name).encode()).hexdigest() != h:
        fail(f"{name} was modified")
print("PASS")
