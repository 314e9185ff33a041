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
if got != 'sample 1 914\nsample 2 79\nsample 3 537\nsample 4 263\nsample 5 293\nsample 6 946\nsample 7 212\nsample 8 600\nsample 9 740\nsample 10 26\nsample 11 961\nsample 12 412\nsample 13 536\nsample 14 379\nsample 15 167\nsample 16 951\nsample 17 443\nsample 18 842\nsample 19 192\nsample 20 731\nsample 21 476\nsample 22 332\nsample 23 44\nsample 24 551\nsample 25 135\nsample 26 590\nsample 27 256\nsample 28 592\nsample 29 606\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 29 samples")
print("PASS")
