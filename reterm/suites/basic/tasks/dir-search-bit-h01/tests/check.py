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
if got != 'central 577\neast 260\nharbor 637\nnorth 569\n':
    fail(f"/app/tally.txt is {got!r}, expected 'central 577\neast 260\nharbor 637\nnorth 569\n'")
for path, digest in {'/app/shared/north/vertex.txt': 'b432604cd68e5d3f1aedea9f4663e9e5b272fdec5cfe74869c97c593b1324044', '/app/shared/north/pixel.txt': 'dd3a79f5247eaea67f3bdc10767bf89751d41cbec8f24fc2b8e72900b63d1c60', '/app/shared/north/kepler.txt': 'b4963c5cd0e9b9bcba134cd073bb2f4c967c92030aed54493d77d4229b7c08ec', '/app/shared/central/kepler.txt': '41e12d506cbb2b1cd21d0d9193c56ba565b9b109644602ba1f3e4407339bd155', '/app/shared/central/pixel.txt': '9c79461a2b5bb527e269b30413cfecc8ce54b1e5c692cd851514e09102638760', '/app/shared/central/ember.txt': '64cd5f8b58e1ee3e132266ccd239c8ec221ac8bab6a420167790594498558b01', '/app/shared/harbor/umber.txt': 'b0189f7db9eedea015011f1b4cd5662ab08cefc8481218b374cb8926fd22f083', '/app/shared/harbor/vertex.txt': '7fe2d46a7e90f70aa1157e778d19b44f40adb881e0235bdebe62cb26f84e2d08', '/app/shared/harbor/maple.txt': '919f515b61759789861d996d839126417c1efb458ef7bebc8c138f38236044e1', '/app/shared/east/maple.txt': '767fa9737f54be4e5f79716d18007a2c37c12a86d10f6c1c420043a58345c8fd', '/app/bin/collect.py': 'd4a8cb979bab292188196f10bab3ee0a4db3b81a0c9c89e929c115a550775983'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/shared': 493, '/app/shared/north': 493, '/app/shared/central': 493, '/app/shared/harbor': 493, '/app/shared/east': 493, '/app/shared/north/vertex.txt': 420, '/app/shared/north/pixel.txt': 420, '/app/shared/north/kepler.txt': 420, '/app/shared/central/kepler.txt': 420, '/app/shared/central/pixel.txt': 420, '/app/shared/central/ember.txt': 420, '/app/shared/harbor/umber.txt': 420, '/app/shared/harbor/vertex.txt': 420, '/app/shared/harbor/maple.txt': 420, '/app/shared/east/maple.txt': 420}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
