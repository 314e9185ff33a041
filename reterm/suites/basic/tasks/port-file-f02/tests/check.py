import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/delta-report.txt") != 'ember 6560\nmaple 6192\npixel 984\nvertex 9251\n':
    fail("/app/out/delta-report.txt does not hold the server's report")
for p, h in {"/app/server.py": "6f782e67a26f410c2ec1f6a7be06f889d975a87798d26ed027abb2dadf586b4a", "/app/client.py": "2214a44daad92db064eec9501bb4f1aecc616805b0707e04084b47fffd0ca2ea"}.items():
    if hashlib.sha256(read(p).encode()).hexdigest() != h:
        fail(f"{p} was modified")
print("PASS")
