import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/samples.txt")
if got != 'sample 1 856\nsample 2 546\nsample 3 170\nsample 4 366\nsample 5 973\nsample 6 688\nsample 7 439\nsample 8 39\nsample 9 909\nsample 10 535\nsample 11 284\nsample 12 323\nsample 13 909\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 13 samples")
print("PASS")
