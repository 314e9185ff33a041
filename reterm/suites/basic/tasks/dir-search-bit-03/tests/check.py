import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/totals.txt")
if got != 'coast 105\neast 184\nnorth 328\nsouth 349\n':
    fail(f"/app/totals.txt is {got!r}, expected 'coast 105\neast 184\nnorth 328\nsouth 349\n'")
for path, digest in {'/app/incoming/north/alpha.txt': 'f7b8837db5ccb9a72661f7d6a33dfbf4166a913f6f1cde3e92a488fa3ec5811f', '/app/incoming/north/maple.txt': '551292bd037662365bf06cd11358c8dc03bd91a84593eb7ac967b0df6eca18ad', '/app/incoming/east/pixel.txt': 'f15c367fcec8bb94a6441e3ba2b3427f697d9e9c1db4f6c91d1aa5d0980c4455', '/app/incoming/south/raven.txt': 'e35873f041990d99f64cde847390d83487ed99892fd18d32b7ff9b693c1aaa60', '/app/incoming/south/gamma.txt': 'eb72bfc521095a42e2dbda9be68192443f40a5b1b044ab5cf853ef3c396dfc04', '/app/incoming/coast/delta.txt': '3df9675890073da1e436e03b54ca9db8c06a03d3b0a3d0511bce308da3dbfcd2', '/app/bin/tally.py': 'daf9dbda562c132876dfd18b10dcfe4aea3de51d915addcc08958d7176687287'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/incoming': 493, '/app/incoming/north': 493, '/app/incoming/east': 493, '/app/incoming/south': 493, '/app/incoming/coast': 493, '/app/incoming/north/alpha.txt': 420, '/app/incoming/north/maple.txt': 420, '/app/incoming/east/pixel.txt': 420, '/app/incoming/south/raven.txt': 420, '/app/incoming/south/gamma.txt': 420, '/app/incoming/coast/delta.txt': 420}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
