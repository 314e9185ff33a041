import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/delta-report.txt") != 'ember 9931\njuniper 7317\norbit 145\nraven 6484\number 493\n':
    fail("/app/out/delta-report.txt does not hold the server's report")
for p, h in {"/app/server.py": "807114dad3145882b6c0a71a7ab487bb32575572d551efc6507d08f29c7f6dbc", "/app/client.py": "465be0f250558121c4153f4ee4463c2dd084afd18634ee98071a64d73ff24e84"}.items():
    if hashlib.sha256(read(p).encode()).hexdigest() != h:
        fail(f"{p} was modified")
print("PASS")
