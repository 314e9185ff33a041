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
if got != 'quartz-9\nkepler-3\nquartz-9\nquartz-9\nquartz-9\nkepler-3\nnova-8\nnova-8\nnova-8\nquartz-9\nnova-8\ncedar-8\nkepler-3\nquartz-9\nquartz-9\nkepler-3\nnova-8\nnova-8\ncedar-8\nkepler-3\nnova-8\nquartz-9\n':
    fail(f"/app/host.txt has {len(got.splitlines())} lines; expected the host of each of the "
         f"first 22 events, one per line")
print("PASS")
