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
if got != 'sample 1 960\nsample 2 906\nsample 3 273\nsample 4 560\nsample 5 844\nsample 6 782\nsample 7 235\nsample 8 809\nsample 9 122\nsample 10 143\nsample 11 191\nsample 12 855\nsample 13 715\nsample 14 695\nsample 15 925\nsample 16 429\nsample 17 369\nsample 18 25\nsample 19 270\nsample 20 887\nsample 21 324\nsample 22 835\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 22 samples")
print("PASS")
