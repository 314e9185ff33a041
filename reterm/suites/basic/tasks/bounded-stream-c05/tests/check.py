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
if got != 'sample 1 190\nsample 2 368\nsample 3 522\nsample 4 996\nsample 5 661\nsample 6 84\nsample 7 360\nsample 8 315\nsample 9 721\nsample 10 927\nsample 11 568\nsample 12 38\nsample 13 302\nsample 14 245\nsample 15 947\nsample 16 649\nsample 17 297\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 17 samples")
print("PASS")
