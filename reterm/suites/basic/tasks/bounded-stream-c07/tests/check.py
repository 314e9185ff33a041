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
if got != 'sample 1 342\nsample 2 168\nsample 3 630\nsample 4 926\nsample 5 489\nsample 6 346\nsample 7 492\nsample 8 97\nsample 9 281\nsample 10 833\nsample 11 337\nsample 12 259\nsample 13 880\nsample 14 960\nsample 15 740\nsample 16 846\nsample 17 418\nsample 18 404\nsample 19 777\nsample 20 130\nsample 21 418\nsample 22 645\nsample 23 140\nsample 24 653\nsample 25 696\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 25 samples")
print("PASS")
