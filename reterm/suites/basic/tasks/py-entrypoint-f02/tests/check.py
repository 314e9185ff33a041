import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/totals_lumen.txt")
if got != 'umber: 35 x 6 = 210\nmaple: 33 x 6 = 198\nkepler: 32 x 6 = 192\nsierra: 22 x 6 = 132\nharbor: 21 x 6 = 126\ntotal: 858 (routinglib 3.7)\n':
    fail(f"/app/totals_lumen.txt is {got!r}, expected 'umber: 35 x 6 = 210\nmaple: 33 x 6 = 198\nkepler: 32 x 6 = 192\nsierra: 22 x 6 = 132\nharbor: 21 x 6 = 126\ntotal: 858 (routinglib 3.7)\n'")
for path, digest in {'/app/src/routinglib/__init__.py': 'f82cb9121f09d27e862e33fbc0b9a3741409c8422deb398899856f6a4f504e7a', '/app/src/routinglib/core.py': 'ff44e21e8d0d8aa98bc109ae03592f6922b9f463e6861bf6aebdf02aa8db55fd', '/app/src/routinglib/main.py': 'a08214f413a48727856d545915cced2e0d60e9231aec63cba97039591a6b9b62'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
