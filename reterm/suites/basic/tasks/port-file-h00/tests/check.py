import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/bravo-report.txt") != 'ember 5658\nfjord 8002\njuniper 8309\nlumen 1692\n':
    fail("/app/out/bravo-report.txt does not hold the server's report")
for p, h in {"/app/server.py": "f5ad362c49509bbde8fd6275accce2b9d2abe39390fd82c05bc84e6e7e9f6d01", "/app/client.py": "18fcdebec5c7c1a4adca05bc6028c82cb4b03e8e5a0196b80f092bc070c93ff4"}.items():
    if hashlib.sha256(read(p).encode()).hexdigest() != h:
        fail(f"{p} was modified")
print("PASS")
