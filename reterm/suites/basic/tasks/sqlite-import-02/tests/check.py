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
if hashlib.sha256(read("/app/data/ember_export.csv").encode()).hexdigest() != "7ce5a60ab52be0795bcee929d299478904866ebb30ca47e2a1fec5f6e531bd6a":
    fail("the CSV file was modified")
if not os.path.isfile("/app/weather.db"):
    fail("/app/weather.db is missing")
try:
    con = sqlite3.connect("file:/app/weather.db?mode=ro", uri=True)
    sql = con.execute("SELECT sql FROM sqlite_master WHERE name = 'stations'").fetchall()
    rows = con.execute("SELECT * FROM stations ORDER BY code").fetchall()
except sqlite3.Error as e:
    fail(f"cannot read the table: {e}")
if sql != [('CREATE TABLE stations (code TEXT PRIMARY KEY, city TEXT NOT NULL, altitude INTEGER NOT NULL, rain_mm INTEGER NOT NULL) STRICT',)]:
    fail(f"the definition of stations changed: {sql}")
want = [('ST192', 'Nova, nova', 29, 174), ('ST346', 'Fjord', 260, 189), ('ST359', 'Sierra', 479, 715), ('ST426', 'Tango', 179, 757), ('ST458', 'Sierra', 171, 160), ('ST478', 'Umber', 0, 880), ('ST526', 'Harbor, harbor', 469, 111), ('ST606', 'Ember', 283, 61), ('ST725', 'Kepler', 413, 761), ('ST845', 'Bravo', 271, 668), ('ST877', 'Maple, kepler', 409, 633), ('ST878', 'Kepler', 171, 102)]
if len(rows) != len(want):
    fail(f"stations has {len(rows)} rows, expected {len(want)} (3 old + 9 imported)")
if rows != want:
    bad = [r for r in rows if r not in want][:3]
    fail(f"stations holds rows that are not in the data (header row? wrong column?): {bad}")
print("PASS")
