import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = "120,57,27,60,69,126"
got = read("/app/output.txt").strip()
if got != want:
    fail(f"output.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/main.py").encode()).hexdigest() != "f2cf416c036c5ce84d0c4c515212a17fde7220f4d8bb5e130980281dba382e0f":
    fail("main.py was modified")
print("PASS")
