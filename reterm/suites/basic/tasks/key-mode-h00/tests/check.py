import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/manifest-91.sig") != 'hmac-sha256 456c201aa567590bbf6784f6d3a557b6151c3bcda5ec69d7d6217276761188a4  manifest-91.txt\n':
    fail("/app/manifest-91.sig is not the signature stamp.py makes")
for path, digest in {'/app/credentials/pixel.pem': 'c26ae270803499c5cebced484bd968ec8238996c3cb8fab579445f84cec0c6a1', '/app/manifest-91.txt': '6aca265bd31cb706266931a3406eb8a338699ccfba11652ffbd5f6149563c146', '/app/bin/stamp.py': '4a5e2d286a58a1997fca1763f0aede407191bcf95abd5b20618af9ca6f108004'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/credentials/pixel.pem': 384, '/app/credentials': 448}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
