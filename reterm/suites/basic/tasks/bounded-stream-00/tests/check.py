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
if got != 'sample 1 843\nsample 2 988\nsample 3 396\nsample 4 761\nsample 5 669\nsample 6 743\nsample 7 326\nsample 8 131\nsample 9 368\nsample 10 662\nsample 11 909\nsample 12 24\nsample 13 565\nsample 14 502\nsample 15 417\nsample 16 367\nsample 17 347\nsample 18 170\nsample 19 5\nsample 20 756\nsample 21 346\nsample 22 183\nsample 23 701\nsample 24 904\nsample 25 97\nsample 26 131\nsample 27 658\nsample 28 695\nsample 29 821\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 29 samples")
print("PASS")
