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
if got != 'sample 1 346\nsample 2 60\nsample 3 632\nsample 4 417\nsample 5 455\nsample 6 360\nsample 7 195\nsample 8 602\nsample 9 455\nsample 10 419\nsample 11 2\nsample 12 61\nsample 13 305\nsample 14 239\nsample 15 42\nsample 16 990\nsample 17 815\nsample 18 609\nsample 19 607\nsample 20 48\nsample 21 870\nsample 22 371\nsample 23 352\nsample 24 858\nsample 25 133\nsample 26 803\nsample 27 644\nsample 28 786\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 28 samples")
print("PASS")
