import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/artifact-11.sig") != 'hmac-sha256 abb9bbfbc6030dc307ae5671cf3505be70281f37c229f7e40f8572e10d2f1e6d  artifact-11.txt\n':
    fail("/app/artifact-11.sig is not the signature stamp.py makes")
for path, digest in {'/app/config/keys/quartz.pem': '2d3732c84723d8bec146a965af4aec28355cf8e7fd68c6ba92f0c957998bee67', '/app/artifact-11.txt': 'f1377d403d1744182b9447d641ad84c3159e375cb3882550b21d9fba910954d2', '/app/bin/stamp.py': '95103c6bcdb28a3291ab4e717ec9570486d004dc57d4eab9a782dcf19e5c05c7'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/config/keys/quartz.pem': 384, '/app/config/keys': 448}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
