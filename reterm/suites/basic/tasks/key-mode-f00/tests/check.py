import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/release-31.sig") != 'hmac-sha256 1f9566076350399a4f473f495024bdbb64f8627356ec16886ad96edbae9b6f3d  release-31.txt\n':
    fail("/app/release-31.sig is not the signature stamp.py makes")
for path, digest in {'/app/.secrets/umber.pem': 'a57a7a7353b8cfe7315e130ff202887ca78efa4fe17ce0b1a4c4031a67017d5a', '/app/release-31.txt': 'a31bae974c68b55c99e42154d140c817e7fd7f9f046c85916141e1469473644d', '/app/bin/stamp.py': 'aa7604b5d88343c2d77e29236aa1b2cd05012b7156640b2b28cb64944e523520'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/.secrets/umber.pem': 384, '/app/.secrets': 448}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
