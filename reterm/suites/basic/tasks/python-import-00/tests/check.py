import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = "150,240,165,100,15,245"
got = read("/app/output.txt").strip()
if got != want:
    fail(f"output.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/main.py").encode()).hexdigest() != "ed4b4db3626b4bc6a97e4412227a53e90f66626ccf80bd6bcc4791113adb9875":
    fail("main.py was modified")
print("PASS")
