import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/release-74.sig") != 'hmac-sha256 3ec0df25e2646bd7fa90d9b1aa9a0a8efa44ea0de9c18d78a72e36f76e429f4b  release-74.txt\n':
    fail("/app/release-74.sig is not the signature attest.py makes")
for path, digest in {'/app/.secrets/harbor.pem': 'b02d701ddf5e3b49a95ca44602642de4dc4e2dc0b9845139078b50ccd35e2641', '/app/release-74.txt': 'e43b9785531c8584076bf5b827d080f270cff0baabc7e03592a429440bc99aed', '/app/bin/attest.py': '8ed705170dceacdd2ffb4d7f5ace4535569fd9cddbacaf978c941ee4335285df'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/.secrets/harbor.pem': 384, '/app/.secrets': 448}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
