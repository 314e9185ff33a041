import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/latency.txt")
if got != '333ms\n580ms\n819ms\n304ms\n418ms\n737ms\n893ms\n409ms\n717ms\n302ms\n866ms\n810ms\n625ms\n974ms\n697ms\n597ms\n815ms\n139ms\n805ms\n632ms\n288ms\n279ms\n97ms\n127ms\n':
    fail(f"/app/latency.txt has {len(got.splitlines())} lines; expected the latency of each of the "
         f"first 24 events, one per line")
print("PASS")
