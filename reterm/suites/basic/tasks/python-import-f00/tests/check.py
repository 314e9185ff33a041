import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

want = "80,82,72,14,88,68"
got = read("/app/output.txt").strip()
if got != want:
    fail(f"output.txt is {got!r}, expected {want!r}")
if hashlib.sha256(read("/app/main.py").encode()).hexdigest() != "4c4abfbae6cbffddab52c44cad9089b1f3ab5193dc7679916e40ed1aaabc09e3":
    fail("main.py was modified")
print("PASS")
