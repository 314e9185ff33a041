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
if got != 'sample 1 36\nsample 2 165\nsample 3 162\nsample 4 171\nsample 5 257\nsample 6 221\nsample 7 924\nsample 8 497\nsample 9 946\nsample 10 886\nsample 11 209\nsample 12 518\nsample 13 871\nsample 14 261\nsample 15 809\nsample 16 430\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 16 samples")
print("PASS")
