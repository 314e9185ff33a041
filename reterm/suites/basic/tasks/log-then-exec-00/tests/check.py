import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/state/promote.txt").strip()
if got != "sierra-gateway promote r3fef58 30da174e79b677b8":
    fail(f"/app/state/promote.txt is {got!r}: not the right release")
if not os.access("/app/bin/promote", os.X_OK):
    fail("/app/bin/promote is still not executable")
if hashlib.sha256(read("/app/bin/promote").encode()).hexdigest() != "ef7251fbafd33367780645572d79d7f7d20bab20efb946bd77514f38977fe678":
    fail("/app/bin/promote was modified")
print("PASS")
