import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/bin/vertex", "rb").read() != b'#!/usr/bin/env python3\n"Totals the stock counts of /app/data/vertex.csv."\nimport csv\nimport os\n\nwith open("/app/data/vertex.csv", encoding="utf-8", newline="") as f:\n    rows = list(csv.DictReader(f))\ntotal = sum(int(row["count"]) for row in rows if row["id"])\nos.makedirs("/app/out", exist_ok=True)\nwith open("/app/out/vertex.txt", "w") as f:\n    f.write(f"vertex: {len(rows)} items, {total} in stock\\n")\n':
    fail("/app/bin/vertex is not the original program with working line endings")
if not os.access("/app/bin/vertex", os.X_OK):
    fail("/app/bin/vertex is no longer executable")
if open('/app/data/vertex.csv', "rb").read() != b'id,count\nmaple,33\nfjord,22\nindigo,37\nalpha,26\njuniper,46\ndelta,30\npixel,14\n':
    fail("/app/data/vertex.csv does not hold the original data in a form the program reads")
if read("/app/out/vertex.txt") != 'vertex: 7 items, 208 in stock\n':
    fail("/app/out/vertex.txt is missing or wrong")
print("PASS")
