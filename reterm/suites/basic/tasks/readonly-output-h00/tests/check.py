import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/var/log/run74.summary")
if got != 'batch run74\nitems 4\ntotal 653\n':
    fail(f"/app/var/log/run74.summary is {got!r}, expected 'batch run74\nitems 4\ntotal 653\n'")
for path, digest in {'/app/incoming/run74.csv': '64c245d5a737771a692d70bd20fc76d888271286b7f275ddd9f1c934c2ce041d', '/app/bin/record.py': '6e63f35ffec11c746412f548e48438aaee85f7fabfc6f0790edcd824f7c04d13'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/var/log': 493}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
