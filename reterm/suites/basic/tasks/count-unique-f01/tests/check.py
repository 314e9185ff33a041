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
want = '22 hana\n11 farah\n4 alice\n3 emeka\n2 bruno\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"counts.txt is {got!r}, expected {want!r}")
for name, h in {'/app/data/sat.txt': '6be81a851fb3a19d7c72d107eec2bc1f7f59a8074eb8ce51cbc0f1f9c26fd51d', '/app/data/mon.txt': '52febdadcc4052e0b463f2c87618f24d8080c06e691fdea12c11155ecb35913d', '/app/data/thu.txt': '52616c3d0811defb84f671154535d7db2e9d0e1421758c6d8241e452d75c3249'}.items():
    if hashlib.sha256(read(name).encode()).hexdigest() != h:
        fail(f"{name} was modified")
print("PASS")
