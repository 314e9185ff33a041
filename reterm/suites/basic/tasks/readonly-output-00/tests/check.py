import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/ledger/batch52.summary")
if got != 'batch batch52\nitems 5\ntotal 1326\n':
    fail(f"/app/ledger/batch52.summary is {got!r}, expected 'batch batch52\nitems 5\ntotal 1326\n'")
for path, digest in {'/app/incoming/batch52.csv': '5372305a2b55571b68b202c5859b54cc70f30dc254a8ed8f03be4d4b98408435', '/app/bin/record.py': '49d2bb5925b39ea090fdd3e744cd463b79cf670d6e82e774907e9fbdfbb3a017'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/ledger': 493}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
