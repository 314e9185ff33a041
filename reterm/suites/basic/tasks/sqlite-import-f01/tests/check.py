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
if hashlib.sha256(read("/app/data/fjord_export.csv").encode()).hexdigest() != "46d207eff4ab9c5ee9b7c2c4420d054d87bcaa3b576815bc597c070f0a14f9fd":
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
want = [('P-122', 'Pixel', 424, 472), ('P-270', 'Vertex, indigo', 44, 548), ('P-374', 'Quartz', 467, 734), ('P-380', 'Orbit', 384, 157), ('P-447', 'Nova', 222, 245), ('P-516', 'Maple, ember', 449, 282), ('P-535', 'Sierra', 418, 186), ('P-549', 'Gamma', 189, 428), ('P-573', 'Lumen', 59, 370), ('P-597', 'Alpha, bravo', 251, 458), ('P-643', 'Maple', 440, 74), ('P-675', 'Quartz', 321, 115), ('P-766', 'Vertex', 404, 428), ('P-828', 'Indigo, umber', 116, 390)]
if len(rows) != len(want):
    fail(f"parts has {len(rows)} rows, expected {len(want)} (2 old + 12 imported)")
if rows != want:
    bad = [r for r in rows if r not in want][:3]
    fail(f"parts holds rows that are not in the data (header row? wrong column?): {bad}")
print("PASS")
