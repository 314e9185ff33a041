import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if open("/app/bin/tango", "rb").read() != b'#!/usr/bin/env python3\n"Totals the stock counts of /app/data/tango.csv."\nimport csv\nimport os\n\nwith open("/app/data/tango.csv", encoding="utf-8", newline="") as f:\n    rows = list(csv.DictReader(f))\ntotal = sum(int(row["count"]) for row in rows if row["id"])\nos.makedirs("/app/out", exist_ok=True)\nwith open("/app/out/tango.txt", "w") as f:\n    f.write(f"tango: {len(rows)} items, {total} in stock\\n")\n':
    fail("/app/bin/tango is not the original program with working line endings")
if not os.access("/app/bin/tango", os.X_OK):
    fail("/app/bin/tango is no longer executable")
if open('/app/data/tango.csv', "rb").read() != b'id,count\nmaple,29\nraven,4\njuniper,54\nindigo,28\ngamma,39\n':
    fail("/app/data/tango.csv does not hold the original data in a form the program reads")
if read("/app/out/tango.txt") != 'tango: 5 items, 154 in stock\n':
    fail("/app/out/tango.txt is missing or wrong")
print("PASS")
