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
if got != 'b0: total 1237\nb1: total 154\nb54: alpha 61\nb54: delta 204\nb54: vertex 366\nb54: raven 122\nb54: total 753\n':
    fail(f"/app/journal/entries.log is {got!r}, expected 'b0: total 1237\nb1: total 154\nb54: alpha 61\nb54: delta 204\nb54: vertex 366\nb54: raven 122\nb54: total 753\n'")
for path, digest in {'/app/incoming/b54.csv': 'b75a91f5bbdd5698e29edb806cf77f1108896bbc4c307b98daf781669eb619a8', '/app/bin/record.py': '69468f814f275d8f9677391dae10428cb96b3572faceec11c1a84b535b8efcac'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/journal/entries.log': 420, '/app/journal': 493}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
