import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import sqlite3
if hashlib.sha256(read("/app/data/tango_export.csv").encode()).hexdigest() != "889ab95df1e303b4ed8ff9101120de4eb37b2ba7871e522c5118356cb77c932a":
    fail("the CSV file was modified")
if not os.path.isfile("/app/catalog_main.db"):
    fail("/app/catalog_main.db is missing")
try:
    con = sqlite3.connect("file:/app/catalog_main.db?mode=ro", uri=True)
    sql = con.execute("SELECT sql FROM sqlite_master WHERE name = 'parts'").fetchall()
    rows = con.execute("SELECT * FROM parts ORDER BY sku").fetchall()
except sqlite3.Error as e:
    fail(f"cannot read the table: {e}")
if sql != [('CREATE TABLE parts (sku TEXT PRIMARY KEY, name TEXT NOT NULL, qty INTEGER NOT NULL, price INTEGER NOT NULL) STRICT',)]:
    fail(f"the definition of parts changed: {sql}")
want = [('P-168', 'Quartz', 222, 549), ('P-253', 'Alpha', 52, 870), ('P-269', 'Umber', 165, 684), ('P-349', 'Umber, pixel', 31, 232), ('P-372', 'Delta', 436, 191), ('P-433', 'Cedar, indigo', 33, 846), ('P-455', 'Indigo, ember', 349, 867), ('P-760', 'Alpha', 183, 560), ('P-828', 'Quartz, juniper', 473, 200)]
if len(rows) != len(want):
    fail(f"parts has {len(rows)} rows, expected {len(want)} (2 old + 7 imported)")
if rows != want:
    bad = [r for r in rows if r not in want][:3]
    fail(f"parts holds rows that are not in the data (header row? wrong column?): {bad}")
print("PASS")
