import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/var/log/b71.summary")
if got != 'batch b71\nitems 4\ntotal 1263\n':
    fail(f"/app/var/log/b71.summary is {got!r}, expected 'batch b71\nitems 4\ntotal 1263\n'")
for path, digest in {'/app/incoming/b71.csv': '16bd59f1f853a74016706ca97a471dd3fbf5eb98a9874a029367152b4ef28dfb', '/app/bin/record.py': 'a3a01faa6bc21ac676fc2d0bd1636b8638d81169365d3f00eb2669ef032b8622'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/var/log': 493}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
