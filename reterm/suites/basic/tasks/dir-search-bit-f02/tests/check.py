import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/tally.txt")
if got != 'coast 561\neast 224\nwest 438\n':
    fail(f"/app/tally.txt is {got!r}, expected 'coast 561\neast 224\nwest 438\n'")
for path, digest in {'/app/spool/west/maple.txt': '5253b4ee4d69e741cb8b9727e99b11402021730e8d8994942a0a25b904a4e620', '/app/spool/west/indigo.txt': 'd569d16b479921e1ab392b6c22854c1fbf9fe9a952939ef22c100dadc0336b8b', '/app/spool/east/harbor.txt': 'a305dbf42a68d480c280f76d1ae9f96caab92481bb2a72b56f3fbdbb279d5ce8', '/app/spool/coast/harbor.txt': '3c372ada7ebaa052ccf09d781e68ba8ad0a9eac152e04c20e410789ab2aecd7e', '/app/spool/coast/bravo.txt': '48038139339b9b29bb1d96475a09ec002daeeec7dd22de4a97a4402cae8d816b', '/app/spool/coast/maple.txt': 'aa9fe9ead13551716c9cb594e45cf5455bf69b639cc8864b5410a22d144f100b', '/app/bin/collect.py': '8916909717003ef9599313d3a080b295064bb44cf85cd657171592a81b186339'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/spool': 493, '/app/spool/west': 493, '/app/spool/east': 493, '/app/spool/coast': 493, '/app/spool/west/maple.txt': 420, '/app/spool/west/indigo.txt': 420, '/app/spool/east/harbor.txt': 420, '/app/spool/coast/harbor.txt': 420, '/app/spool/coast/bravo.txt': 420, '/app/spool/coast/maple.txt': 420}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
