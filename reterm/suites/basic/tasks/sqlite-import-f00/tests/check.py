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
if hashlib.sha256(read("/app/data/alpha_export.csv").encode()).hexdigest() != "5a42bd933cf61466431f714430a8112e0b687a95d05e21fd309949d958c0e29f":
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
want = [('P-111', 'Harbor', 227, 230), ('P-210', 'Quartz', 218, 585), ('P-244', 'Indigo', 268, 135), ('P-361', 'Harbor, alpha', 278, 389), ('P-381', 'Cedar', 362, 723), ('P-391', 'Juniper, tango', 172, 237), ('P-440', 'Maple, pixel', 372, 317), ('P-569', 'Raven, harbor', 301, 415), ('P-586', 'Delta', 455, 449), ('P-639', 'Delta, tango', 22, 526), ('P-644', 'Bravo', 452, 382), ('P-647', 'Delta', 112, 756), ('P-801', 'Cedar, harbor', 16, 128)]
if len(rows) != len(want):
    fail(f"parts has {len(rows)} rows, expected {len(want)} (2 old + 11 imported)")
if rows != want:
    bad = [r for r in rows if r not in want][:3]
    fail(f"parts holds rows that are not in the data (header row? wrong column?): {bad}")
print("PASS")
