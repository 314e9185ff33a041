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
if got != 'sample 1 558\nsample 2 634\nsample 3 846\nsample 4 690\nsample 5 678\nsample 6 531\nsample 7 123\nsample 8 144\nsample 9 768\nsample 10 79\nsample 11 243\nsample 12 639\nsample 13 348\nsample 14 373\nsample 15 369\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 15 samples")
print("PASS")
