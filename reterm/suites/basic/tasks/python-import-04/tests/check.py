import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = "4,200,164,72,84,140"
got = read("/app/output.txt").strip()
if got != want:
    fail(f"output.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/main.py").encode()).hexdigest() != "ebdd117643aee48203d5ccbd3ff7905d59f25b8cabf64df29d1b3614d0ee8d14":
    fail("main.py was modified")
print("PASS")
