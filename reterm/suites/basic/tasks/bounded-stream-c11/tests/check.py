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
if got != 'sample 1 377\nsample 2 875\nsample 3 930\nsample 4 277\nsample 5 330\nsample 6 483\nsample 7 457\nsample 8 662\nsample 9 975\nsample 10 34\nsample 11 396\nsample 12 823\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 12 samples")
print("PASS")
