import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

try:
    cfg = json.loads(read("/app/config.json"))
except ValueError as e:
    fail(f"config.json is still not valid JSON: {e}")
if cfg != {'name': 'tango', 'port': 5623, 'workers': 3, 'debug': False}:
    fail(f"settings changed: {cfg}")
if read("/app/result.txt").strip() != "tango:5623:3":
    fail("result.txt is wrong")
print("PASS")
