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
if got != 'sample 1 485\nsample 2 511\nsample 3 469\nsample 4 574\nsample 5 25\nsample 6 180\nsample 7 68\nsample 8 782\nsample 9 8\nsample 10 989\nsample 11 85\nsample 12 550\nsample 13 218\nsample 14 965\nsample 15 655\nsample 16 799\nsample 17 140\nsample 18 660\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 18 samples")
print("PASS")
