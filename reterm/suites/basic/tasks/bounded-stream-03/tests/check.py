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
if got != 'sample 1 779\nsample 2 393\nsample 3 556\nsample 4 918\nsample 5 523\nsample 6 53\nsample 7 574\nsample 8 405\nsample 9 239\nsample 10 636\nsample 11 331\nsample 12 962\nsample 13 969\nsample 14 348\nsample 15 759\nsample 16 548\nsample 17 6\nsample 18 160\nsample 19 443\nsample 20 316\nsample 21 728\nsample 22 655\nsample 23 91\nsample 24 390\nsample 25 920\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 25 samples")
print("PASS")
