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
if got != 'sample 1 866\nsample 2 592\nsample 3 332\nsample 4 818\nsample 5 78\nsample 6 898\nsample 7 480\nsample 8 79\nsample 9 670\nsample 10 885\nsample 11 483\nsample 12 302\nsample 13 361\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 13 samples")
print("PASS")
