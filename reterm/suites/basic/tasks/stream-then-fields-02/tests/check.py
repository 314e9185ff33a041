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
if got != 'indigo-8\nindigo-8\nlumen-7\ncedar-3\nlumen-7\ncedar-3\nindigo-8\nlumen-7\nharbor-5\nindigo-8\nindigo-8\n':
    fail(f"/app/host.txt has {len(got.splitlines())} lines; expected the host of each of the "
         f"first 11 events, one per line")
print("PASS")
