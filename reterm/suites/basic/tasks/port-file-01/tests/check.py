import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/alpha-report.txt") != 'kepler 4998\nmaple 407\nraven 5899\n':
    fail("/app/out/alpha-report.txt does not hold the server's report")
for p, h in {"/app/server.py": "4589dae4705b083de8a47a462c47bd8362c1f85930954df8eb543b2a77773cf1", "/app/client.py": "985289ee5c1c652088603faa7e6517f6a64d719f0e186185c056536eb13fe055"}.items():
    if hashlib.sha256(read(p).encode()).hexdigest() != h:
        fail(f"{p} was modified")
print("PASS")
