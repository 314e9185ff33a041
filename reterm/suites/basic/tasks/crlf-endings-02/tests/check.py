import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/bin/ember", "rb").read() != b'#!/usr/bin/env python3\n"Totals the stock counts of /app/data/ember.csv."\nimport csv\nimport os\n\nwith open("/app/data/ember.csv", encoding="utf-8", newline="") as f:\n    rows = list(csv.DictReader(f))\ntotal = sum(int(row["count"]) for row in rows if row["id"])\nos.makedirs("/app/out", exist_ok=True)\nwith open("/app/out/ember.txt", "w") as f:\n    f.write(f"ember: {len(rows)} items, {total} in stock\\n")\n':
    fail("/app/bin/ember is not the original program with working line endings")
if not os.access("/app/bin/ember", os.X_OK):
    fail("/app/bin/ember is no longer executable")
if open('/app/data/ember.csv', "rb").read() != b'id,count\nlumen,44\nvertex,36\ntango,67\nbravo,24\ngamma,76\n':
    fail("/app/data/ember.csv does not hold the original data in a form the program reads")
if read("/app/out/ember.txt") != 'ember: 5 items, 247 in stock\n':
    fail("/app/out/ember.txt is missing or wrong")
print("PASS")
