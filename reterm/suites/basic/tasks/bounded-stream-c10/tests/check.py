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
if got != 'sample 1 904\nsample 2 629\nsample 3 889\nsample 4 624\nsample 5 800\nsample 6 939\nsample 7 251\nsample 8 639\nsample 9 504\nsample 10 1\nsample 11 26\nsample 12 801\nsample 13 514\nsample 14 287\nsample 15 935\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 15 samples")
print("PASS")
