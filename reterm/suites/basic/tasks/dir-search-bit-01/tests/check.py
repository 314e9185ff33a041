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
if got != 'central 615\neast 650\nharbor 177\n':
    fail(f"/app/totals.txt is {got!r}, expected 'central 615\neast 650\nharbor 177\n'")
for path, digest in {'/app/shared/east/juniper.txt': '75362d463aa8368489f5126664f8d01f3ba25bf0e7faef355bd1677004a512ba', '/app/shared/east/umber.txt': 'f6e63237b53a0b1fd9f2a5d0f9bc4b94ef14add4642231f2473e8e406195e090', '/app/shared/east/harbor.txt': '97a1157303551efb0abf12d9621f8b0caac98d8b69fc5d9e7c9f6e65b62710a1', '/app/shared/central/fjord.txt': '7ff4ad7ddb23ea54b80d24d7065035cdf96b86901be2793b8b58837b52674213', '/app/shared/central/quartz.txt': '5bb37db6c2fff985b963c43e6e4f41f15bc4ddb7a5bc4e98040e47ba11879a13', '/app/shared/central/lumen.txt': 'e63d0db0ee452f6ef9112b1dfbd9df7d990e744d7e03a11be8164009e0e03957', '/app/shared/harbor/vertex.txt': '8e83e098d4bf4fde7e381621e30e9a317df8ccea2624c8a404c2e3ab422a70b4', '/app/shared/harbor/nova.txt': '7dde39f354d13f641912b5050fc68d1d31fd778139eaf1c161c2fe5d348ebef7', '/app/bin/collect.py': 'a2223826545085084bb3c75ccea7bc1fd50fdfe35c51e1edd7bd75080504b328'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/shared': 493, '/app/shared/east': 493, '/app/shared/central': 493, '/app/shared/harbor': 493, '/app/shared/east/juniper.txt': 420, '/app/shared/east/umber.txt': 420, '/app/shared/east/harbor.txt': 420, '/app/shared/central/fjord.txt': 420, '/app/shared/central/quartz.txt': 420, '/app/shared/central/lumen.txt': 420, '/app/shared/harbor/vertex.txt': 420, '/app/shared/harbor/nova.txt': 420}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
