import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/lumen-report.txt") != 'alpha 3198\norbit 2326\nsierra 1105\n':
    fail("/app/out/lumen-report.txt does not hold the server's report")
for p, h in {"/app/server.py": "d87d7e20a78699a9deac9099c8f12de50bc648f96140c7abd34cc559e07d4525", "/app/client.py": "7fc93b5f9398ceb1080f0dda49c87ef5b5f083bfc9b154c27162fa1494fb1b45"}.items():
    if hashlib.sha256(read(p).encode()).hexdigest() != h:
        fail(f"{p} was modified")
print("PASS")
