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
if got != 'sample 1 127\nsample 2 389\nsample 3 225\nsample 4 61\nsample 5 233\nsample 6 804\nsample 7 930\nsample 8 241\nsample 9 625\nsample 10 133\nsample 11 517\nsample 12 540\nsample 13 888\nsample 14 958\nsample 15 341\nsample 16 726\nsample 17 580\nsample 18 6\nsample 19 643\nsample 20 649\nsample 21 411\nsample 22 372\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 22 samples")
print("PASS")
