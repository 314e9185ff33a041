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
if got != 'sample 1 191\nsample 2 685\nsample 3 871\nsample 4 843\nsample 5 82\nsample 6 545\nsample 7 850\nsample 8 62\nsample 9 309\nsample 10 25\nsample 11 589\nsample 12 742\nsample 13 282\nsample 14 785\nsample 15 770\nsample 16 964\nsample 17 591\nsample 18 937\nsample 19 280\nsample 20 878\nsample 21 995\nsample 22 358\nsample 23 545\nsample 24 218\nsample 25 374\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 25 samples")
print("PASS")
