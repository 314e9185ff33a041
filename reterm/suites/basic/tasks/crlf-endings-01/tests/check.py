import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/bin/raven", "rb").read() != b'#!/usr/bin/env python3\n"Totals the stock counts of /app/data/raven.csv."\nimport csv\nimport os\n\nwith open("/app/data/raven.csv", encoding="utf-8", newline="") as f:\n    rows = list(csv.DictReader(f))\ntotal = sum(int(row["count"]) for row in rows if row["id"])\nos.makedirs("/app/out", exist_ok=True)\nwith open("/app/out/raven.txt", "w") as f:\n    f.write(f"raven: {len(rows)} items, {total} in stock\\n")\n':
    fail("/app/bin/raven is not the original program with working line endings")
if not os.access("/app/bin/raven", os.X_OK):
    fail("/app/bin/raven is no longer executable")
if open('/app/data/raven.csv', "rb").read() != b'id,count\npixel,65\nember,89\nalpha,28\nharbor,67\ntango,63\nindigo,24\n':
    fail("/app/data/raven.csv does not hold the original data in a form the program reads")
if read("/app/out/raven.txt") != 'raven: 6 items, 336 in stock\n':
    fail("/app/out/raven.txt is missing or wrong")
print("PASS")
