import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/host.txt")
if got != 'kepler-8\nraven-7\nraven-7\nember-1\nraven-7\nkepler-8\nraven-7\nraven-7\nember-1\nember-1\nraven-7\nember-1\ngamma-3\nraven-7\nkepler-8\nkepler-8\nember-1\nkepler-8\n':
    fail(f"/app/host.txt has {len(got.splitlines())} lines; expected the host of each of the "
         f"first 18 events, one per line")
print("PASS")
