import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/ledger/run22.summary")
if got != 'batch run22\nitems 4\ntotal 873\n':
    fail(f"/app/ledger/run22.summary is {got!r}, expected 'batch run22\nitems 4\ntotal 873\n'")
for path, digest in {'/app/incoming/run22.csv': '8729fb71733ffb6fdcb2958eda16099e0ebda4f70d52fda7380e2da8f61643f1', '/app/bin/record.py': '4304ac691601655a36455b3fe85d8c26b69b98e51db636e86109bf2904052e2c'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/ledger': 493}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
