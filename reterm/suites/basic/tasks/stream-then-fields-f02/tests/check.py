import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/component.txt")
if got != 'auth\nbilling\nsearch\nauth\nsearch\nauth\nsearch\nauth\nauth\nreports\nsearch\nsearch\nauth\nbilling\nreports\nbilling\nbilling\nreports\nreports\nauth\nbilling\n':
    fail(f"/app/component.txt has {len(got.splitlines())} lines; expected the component of each of the "
         f"first 21 events, one per line")
print("PASS")
