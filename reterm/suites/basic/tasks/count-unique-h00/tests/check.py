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
want = '24 juniper\n18 pixel\n12 ember\n11 gamma\n7 cedar\n2 delta\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"counts.txt is {got!r}, expected {want!r}")
for name, h in {'/app/data/mon.txt': '3267ff0c2649f2956be620c1a105d2be4eaf61c3c2c30c42882fe335e5d76cdd', '/app/data/fri.txt': 'e96446db365794bb7a5d8dbf41acb247c1976fdfccb9f4e0d035e96367625146', '/app/data/sat.txt': 'fd17dac111d10b733665846dcf3dd3fbdc08872e8c6f2ed590db3d0166bd5270'}.items():
    if hashlib.sha256(read(name).encode()).hexdigest() != h:
        fail(f"{name} was modified")
print("PASS")
