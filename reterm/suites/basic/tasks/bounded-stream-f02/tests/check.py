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
if got != 'sample 1 117\nsample 2 670\nsample 3 33\nsample 4 134\nsample 5 377\nsample 6 252\nsample 7 918\nsample 8 895\nsample 9 604\nsample 10 74\nsample 11 64\nsample 12 712\nsample 13 165\nsample 14 86\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 14 samples")
print("PASS")
