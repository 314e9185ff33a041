import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/state/publish.txt").strip()
if got != "raven-worker publish r991c46 4a0c6ff363b66e20":
    fail(f"/app/state/publish.txt is {got!r}: not the right release")
if not os.access("/app/bin/publish", os.X_OK):
    fail("/app/bin/publish is still not executable")
if hashlib.sha256(read("/app/bin/publish").encode()).hexdigest() != "b1450d68afa795d3345997d825116a8dcccba9d6084b5deb2f15c15570eb6e5c":
    fail("/app/bin/publish was modified")
print("PASS")
