import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/bin/harbor", "rb").read() != b'#!/usr/bin/env python3\n"Totals the stock counts of /app/data/harbor.csv."\nimport csv\nimport os\n\nwith open("/app/data/harbor.csv", encoding="utf-8", newline="") as f:\n    rows = list(csv.DictReader(f))\ntotal = sum(int(row["count"]) for row in rows if row["id"])\nos.makedirs("/app/out", exist_ok=True)\nwith open("/app/out/harbor.txt", "w") as f:\n    f.write(f"harbor: {len(rows)} items, {total} in stock\\n")\n':
    fail("/app/bin/harbor is not the original program with working line endings")
if not os.access("/app/bin/harbor", os.X_OK):
    fail("/app/bin/harbor is no longer executable")
if open('/app/data/harbor.csv', "rb").read() != b'id,count\njuniper,58\nmaple,11\ngamma,59\number,33\nsierra,38\npixel,15\norbit,22\n':
    fail("/app/data/harbor.csv does not hold the original data in a form the program reads")
if read("/app/out/harbor.txt") != 'harbor: 7 items, 236 in stock\n':
    fail("/app/out/harbor.txt is missing or wrong")
print("PASS")
