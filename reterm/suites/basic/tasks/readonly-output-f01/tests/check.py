import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/records/journal.log")
if got != 'b0: total 1081\nb1: total 967\nb2: total 1700\nb3: total 1052\nbatch63: vertex 420\nbatch63: juniper 225\nbatch63: indigo 403\nbatch63: lumen 331\nbatch63: total 1379\n':
    fail(f"/app/records/journal.log is {got!r}, expected 'b0: total 1081\nb1: total 967\nb2: total 1700\nb3: total 1052\nbatch63: vertex 420\nbatch63: juniper 225\nbatch63: indigo 403\nbatch63: lumen 331\nbatch63: total 1379\n'")
for path, digest in {'/app/incoming/batch63.csv': '9ebc20c93f0a12b8d800ddef63da2d45d6031d1f3eab2c487b9edbdb44908ce3', '/app/bin/record.py': '82bb57f042215b99fce0d4bb9eb9695f3e340dfdb4bd65b7c6a967b084439c44'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/records/journal.log': 420, '/app/records': 493}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
