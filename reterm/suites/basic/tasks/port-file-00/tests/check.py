import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/vertex-report.txt") != 'alpha 5136\nindigo 8480\norbit 8975\nvertex 7467\n':
    fail("/app/out/vertex-report.txt does not hold the server's report")
for p, h in {"/app/server.py": "02df21a416e6fe0c32453b7ce9755db693400ba68cbdb18ff7b7177240731f8b", "/app/client.py": "62d9f56f55d5d8e4f9d47beadb26edbc5841d89d10b88ed6d70d9fc342d9e50c"}.items():
    if hashlib.sha256(read(p).encode()).hexdigest() != h:
        fail(f"{p} was modified")
print("PASS")
