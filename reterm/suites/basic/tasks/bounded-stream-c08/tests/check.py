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
if got != 'sample 1 829\nsample 2 713\nsample 3 202\nsample 4 584\nsample 5 513\nsample 6 243\nsample 7 422\nsample 8 815\nsample 9 259\nsample 10 263\nsample 11 231\nsample 12 965\nsample 13 118\nsample 14 931\nsample 15 67\nsample 16 22\nsample 17 465\nsample 18 398\nsample 19 451\nsample 20 791\nsample 21 539\nsample 22 381\nsample 23 279\nsample 24 980\nsample 25 712\nsample 26 581\nsample 27 397\nsample 28 381\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 28 samples")
print("PASS")
