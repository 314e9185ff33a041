import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/release-38.sig") != 'hmac-sha256 8b767d2ea4bf5e0e0fb2ed7b62feb98831c12661ec4316e7348b2db7ecf17ded  release-38.txt\n':
    fail("/app/release-38.sig is not the signature seal.py makes")
for path, digest in {'/app/keys/orbit.key': '6d43d7fb8d2103cc2c668cfca8553a05e1586892d3f74674966c8871e83c243c', '/app/release-38.txt': '6f6dc299772988b91a49a4a53b0003b9caf20e149cc79b25cdf98720215271e4', '/app/bin/seal.py': '604a0648af9a0f28c0ab0da2767c30f612f719326a7fb309805988c450e06459'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/keys/orbit.key': 384, '/app/keys': 448}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
