import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/manifest-81.sig") != 'hmac-sha256 0adc4158fee1471eeda1574577815488f41ebfe798825b878078e973512505f3  manifest-81.txt\n':
    fail("/app/manifest-81.sig is not the signature seal.py makes")
for path, digest in {'/app/credentials/bravo.pem': 'e96542ad9e11df359a90cf9db7f5c8bc472cf3a5497b7605ee02fd2a3da3ea0d', '/app/manifest-81.txt': '31d2f4d2e19db25aaa6778b5e8c98190e3f2721e545de50f0df127079329ef64', '/app/bin/seal.py': '42e25ba0455eb84df512af68c618f7901b97e8cd7a78c69e7d380818fd89445c'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/credentials/bravo.pem': 384, '/app/credentials': 448}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
