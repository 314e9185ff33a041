import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/bundle-80.sig") != 'hmac-sha256 b84f30390905340439d653d78ba16a41a2e39de215bb3c427be1dcafa637e8fc  bundle-80.txt\n':
    fail("/app/bundle-80.sig is not the signature attest.py makes")
for path, digest in {'/app/config/keys/lumen_ed25519': '4889a5a482a4ac9d35974d0918a63ef005993050c58992a613364688b9469784', '/app/bundle-80.txt': '3c7caea04445040b72417c5404adc49b61fc312484f37c578455a0ad65ff33e2', '/app/bin/attest.py': 'de67e9659529bd6cc5f8bbdb106cbbecf7c8a282ac06b4c6a368adabc3e1fcc2'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/config/keys/lumen_ed25519': 384, '/app/config/keys': 448}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
