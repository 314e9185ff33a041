import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/journal/entries.log")
if got != 'b0: total 248\nb1: total 720\nb2: total 459\nb3: total 1206\nrun64: umber 360\nrun64: alpha 281\nrun64: vertex 73\nrun64: juniper 376\nrun64: delta 26\nrun64: total 1116\n':
    fail(f"/app/journal/entries.log is {got!r}, expected 'b0: total 248\nb1: total 720\nb2: total 459\nb3: total 1206\nrun64: umber 360\nrun64: alpha 281\nrun64: vertex 73\nrun64: juniper 376\nrun64: delta 26\nrun64: total 1116\n'")
for path, digest in {'/app/incoming/run64.csv': 'cc4863b14e4467dc75cf95e048eadb1123ef52599ab8c8a54062bd6bd2a08b5f', '/app/bin/record.py': '6ed2da77174f0131bb7504e8b7c0d6c9d00cef43c77e912ff1d6b6ac05cf8b63'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/journal/entries.log': 420, '/app/journal': 493}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
