import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/sierra-report.txt") != 'alpha 3706\norbit 8756\nsierra 1002\number 5102\n':
    fail("/app/out/sierra-report.txt does not hold the server's report")
for p, h in {"/app/server.py": "17b2ded89a2cf455f541ef9d099e14c66a2dfd36d92de8738c0014e215ae22d4", "/app/client.py": "ef7af01ab7f57b2c1217f947d4b7215ec5efc2dd5427a29b878c92eb1fbbb352"}.items():
    if hashlib.sha256(read(p).encode()).hexdigest() != h:
        fail(f"{p} was modified")
print("PASS")
