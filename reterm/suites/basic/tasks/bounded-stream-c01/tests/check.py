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
if got != 'sample 1 374\nsample 2 716\nsample 3 633\nsample 4 896\nsample 5 653\nsample 6 751\nsample 7 266\nsample 8 970\nsample 9 190\nsample 10 266\nsample 11 690\nsample 12 537\nsample 13 856\nsample 14 498\nsample 15 616\nsample 16 910\nsample 17 15\nsample 18 863\nsample 19 982\nsample 20 110\nsample 21 188\nsample 22 755\nsample 23 9\nsample 24 938\nsample 25 807\nsample 26 69\nsample 27 6\nsample 28 632\nsample 29 81\nsample 30 49\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 30 samples")
print("PASS")
