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
want = '24 vertex.example.org\n23 juniper.example.org\n19 indigo.example.org\n14 umber.example.org\n3 kepler.example.org\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"counts.txt is {got!r}, expected {want!r}")
for name, h in {'/app/data/sat.txt': '1193da9914ae2a737e2541cfa8f954209225c651bf1a73ec332d3539d7923ad5', '/app/data/mon.txt': '5f2be5824da2d97d28bb9de96499a16ac05deffc5bc9de1596e6b2c968788236', '/app/data/tue.txt': 'c6e6f6f5bc368a4347028996ae0b52438e6d2fce50b9d8058bab4fc8225fef05'}.items():
    if hashlib.sha256(read(name).encode()).hexdigest() != h:
        fail(f"{name} was modified")
print("PASS")
