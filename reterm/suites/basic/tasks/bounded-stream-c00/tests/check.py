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
if got != 'sample 1 564\nsample 2 367\nsample 3 551\nsample 4 51\nsample 5 48\nsample 6 641\nsample 7 365\nsample 8 189\nsample 9 543\nsample 10 963\nsample 11 136\nsample 12 14\nsample 13 158\nsample 14 62\nsample 15 575\nsample 16 980\nsample 17 207\nsample 18 196\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 18 samples")
print("PASS")
