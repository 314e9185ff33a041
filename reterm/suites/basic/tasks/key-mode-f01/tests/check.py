import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/release-95.sig") != 'hmac-sha256 c33818402615ebaedc9312be41557a38d7e42559c7913e082afe0858f05a5bd1  release-95.txt\n':
    fail("/app/release-95.sig is not the signature stamp.py makes")
for path, digest in {'/app/.secrets/harbor_ed25519': '7b8b62c454ea179a10b0c0665bf63301bcfd6f0dc826fb13db399e7c7bfe180c', '/app/release-95.txt': 'fe778c5d30ac70eef0484c563af7f8a0e5d12ab7eafd6009bd32f702d57dd55b', '/app/bin/stamp.py': '92ca10e690e2ff700795dc01c7350ef29fb72564cff0e2c568598654bdf41101'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/.secrets/harbor_ed25519': 384, '/app/.secrets': 448}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
