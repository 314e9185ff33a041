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
if got != 'sample 1 978\nsample 2 174\nsample 3 666\nsample 4 222\nsample 5 919\nsample 6 712\nsample 7 438\nsample 8 987\nsample 9 356\nsample 10 679\nsample 11 307\nsample 12 55\nsample 13 358\nsample 14 34\nsample 15 528\n':
    fail(f"samples.txt has {len(got.splitlines())} lines; expected exactly the first 15 samples")
print("PASS")
