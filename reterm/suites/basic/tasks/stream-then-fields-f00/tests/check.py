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
if got != '946ms\n636ms\n639ms\n240ms\n588ms\n717ms\n768ms\n885ms\n52ms\n723ms\n579ms\n551ms\n467ms\n129ms\n616ms\n102ms\n':
    fail(f"/app/latency.txt has {len(got.splitlines())} lines; expected the latency of each of the "
         f"first 16 events, one per line")
print("PASS")
