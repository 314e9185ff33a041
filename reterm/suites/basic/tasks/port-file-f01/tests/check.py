import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/delta-report.txt") != 'quartz 7115\nsierra 5846\number 3579\n':
    fail("/app/out/delta-report.txt does not hold the server's report")
for p, h in {"/app/server.py": "f5a52b6c541b83adf78259ca9426e1c56c7fbe144a02da3de30477797e793123", "/app/client.py": "aeaeed76aacce6dbd43a96e0f58f93418ba7b3ca565bd0cb474bfaf8015b02aa"}.items():
    if hashlib.sha256(read(p).encode()).hexdigest() != h:
        fail(f"{p} was modified")
print("PASS")
