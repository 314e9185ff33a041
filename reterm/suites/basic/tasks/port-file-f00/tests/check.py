import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/sierra-report.txt") != 'delta 3799\nember 306\nlumen 4737\ntango 4578\nvertex 7611\n':
    fail("/app/out/sierra-report.txt does not hold the server's report")
for p, h in {"/app/server.py": "1d778370515118a0ca0f15618f691bf575a85dfd7702cd53ef98e8f3e3ee9609", "/app/client.py": "00aac229e8384336f90eb90a9a42df55b47a41d44af9cea2cde00ee8ebb4d05f"}.items():
    if hashlib.sha256(read(p).encode()).hexdigest() != h:
        fail(f"{p} was modified")
print("PASS")
