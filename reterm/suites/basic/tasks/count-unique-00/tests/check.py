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
want = '25 juniper\n22 orbit\n20 tango\n19 umber\n12 bravo\n10 gamma\n9 quartz\n6 fjord\n'
if got.rstrip("\n") != want.rstrip("\n"):
    fail(f"counts.txt is {got!r}, expected {want!r}")
for name, h in {'/app/data/mon.txt': 'f1867b56d1eed4bc06e8e11740b12ebeb3f736d6c5c58e61494fa82163bc7c4e', '/app/data/wed.txt': '06bf1961391da4c58fe9fd124a130086c37a135c6d0a49b03c540e386e2a3e31', '/app/data/fri.txt': 'cd07c43bd2ee2c11b36be4619f3a322d9fedb96856bc024b767e525bf1083b01'}.items():
    if hashlib.sha256(read(name).encode()).hexdigest() != h:
        fail(f"{name} was modified")
print("PASS")
