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
if hashlib.sha256(read("/app/data/quartz_export.csv").encode()).hexdigest() != "f6b363552a3d665a095680a5557dc82969ab7c7e02d29153c3e9ba8fad427ec2":
    fail("the CSV file was modified")
if not os.path.isfile("/app/catalog_v2.db"):
    fail("/app/catalog_v2.db is missing")
try:
    con = sqlite3.connect("file:/app/catalog_v2.db?mode=ro", uri=True)
    sql = con.execute("SELECT sql FROM sqlite_master WHERE name = 'parts'").fetchall()
    rows = con.execute("SELECT * FROM parts ORDER BY sku").fetchall()
except sqlite3.Error as e:
    fail(f"cannot read the table: {e}")
if sql != [('CREATE TABLE parts (sku TEXT PRIMARY KEY, name TEXT NOT NULL, qty INTEGER NOT NULL, price INTEGER NOT NULL) STRICT',)]:
    fail(f"the definition of parts changed: {sql}")
want = [('P-357', 'Fjord', 265, 875), ('P-503', 'Indigo', 85, 383), ('P-562', 'Nova', 300, 297), ('P-635', 'Raven', 473, 728), ('P-672', 'Ember', 93, 496), ('P-719', 'Ember', 303, 798), ('P-874', 'Maple', 146, 385), ('P-903', 'Vertex', 114, 299), ('P-950', 'Tango', 322, 811)]
if len(rows) != len(want):
    fail(f"parts has {len(rows)} rows, expected {len(want)} (3 old + 6 imported)")
if rows != want:
    bad = [r for r in rows if r not in want][:3]
    fail(f"parts holds rows that are not in the data (header row? wrong column?): {bad}")
print("PASS")
