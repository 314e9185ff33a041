import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/var/log/ledger.log")
if got != 'b0: total 1523\nb1: total 1432\nb2: total 1853\nb3: total 1231\nb84: indigo 70\nb84: orbit 496\nb84: juniper 463\nb84: total 1029\n':
    fail(f"/app/var/log/ledger.log is {got!r}, expected 'b0: total 1523\nb1: total 1432\nb2: total 1853\nb3: total 1231\nb84: indigo 70\nb84: orbit 496\nb84: juniper 463\nb84: total 1029\n'")
for path, digest in {'/app/incoming/b84.csv': '8a7fc1a68a680a07783393c82e149e9f5d8a596af6aa5063c04396719d966950', '/app/bin/record.py': 'e251a353636ee4b0738b59445ebf32dafc646a25b7881c69d131a31c29eaa871'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/var/log/ledger.log': 420, '/app/var/log': 493}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
