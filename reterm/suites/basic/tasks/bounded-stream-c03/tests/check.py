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
if got != 'sample 1 84\nsample 2 630\nsample 3 28\nsample 4 171\nsample 5 144\nsample 6 478\nsample 7 902\nsample 8 942\nsample 9 780\nsample 10 846\nsample 11 924\nsample 12 454\nsample 13 951\nsample 14 7\nsample 15 333\nsample 16 301\nsample 17 436\nsample 18 782\nsample 19 198\nsample 20 55\nsample 21 111\nsample 22 706\nsample 23 749\nsample 24 794\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 24 samples")
print("PASS")
