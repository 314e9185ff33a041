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
if got != 'sample 1 305\nsample 2 949\nsample 3 20\nsample 4 31\nsample 5 103\nsample 6 804\nsample 7 622\nsample 8 294\nsample 9 215\nsample 10 801\nsample 11 359\nsample 12 194\nsample 13 52\nsample 14 921\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 14 samples")
print("PASS")
