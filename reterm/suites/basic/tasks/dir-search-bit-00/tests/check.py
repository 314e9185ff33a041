import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/report.txt")
if got != 'central 476\nnorth 577\nsouth 263\nwest 313\n':
    fail(f"/app/report.txt is {got!r}, expected 'central 476\nnorth 577\nsouth 263\nwest 313\n'")
for path, digest in {'/app/inbox/south/lumen.txt': '3365eb78c0288c24df8a3e8b3d5973d9fec51f52eaf04493e783033426f4444b', '/app/inbox/south/alpha.txt': 'e0e2c5ac1014f70b1e7be1a7a17d950ab1eb1d4ff23d9d2a24aecc6f68404854', '/app/inbox/west/sierra.txt': '19bc6e73c43d1c4ba18de1a0b1bbfeb21bfdcfb6b125789e30b183c31684539f', '/app/inbox/central/sierra.txt': '28464ac3bfb4ea1fd9336cdbaa10152aa0b7d35a491a24f7d85af54a22da0433', '/app/inbox/central/orbit.txt': '971c29986844cfa9b9a10d1c6dd4df8fbbdbedb2e59b23c89770f5dbd0abd085', '/app/inbox/north/harbor.txt': '7e9ab966355ab2c3e5b2bbbf5d207e8a73171996a0aa36bd1b1c0f647db2569a', '/app/inbox/north/vertex.txt': 'c14d9cf2456eabff8f460813902b3b235761054e776e6a53fecef4d3aa2a9fd0', '/app/inbox/north/cedar.txt': 'ac90b1691ad574f1dc7647898441f1ca927197a803aacb6431c306102b598d95', '/app/bin/tally.py': '7bb0204ee6e44ff63ddbb739ee2bedc8f5c7655c923feb1ffffad133f451dd5e'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/inbox': 493, '/app/inbox/south': 493, '/app/inbox/west': 493, '/app/inbox/central': 493, '/app/inbox/north': 493, '/app/inbox/south/lumen.txt': 420, '/app/inbox/south/alpha.txt': 420, '/app/inbox/west/sierra.txt': 420, '/app/inbox/central/sierra.txt': 420, '/app/inbox/central/orbit.txt': 420, '/app/inbox/north/harbor.txt': 420, '/app/inbox/north/vertex.txt': 420, '/app/inbox/north/cedar.txt': 420}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
