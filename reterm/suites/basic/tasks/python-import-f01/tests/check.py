import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = "27,351,216,450,405,36"
got = read("/app/output.txt").strip()
if got != want:
    fail(f"output.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/main.py").encode()).hexdigest() != "f2c7ca2ef41202a449fe74088cac45ab3e943cd4d2a011d51969f8db7697128c":
    fail("main.py was modified")
print("PASS")
