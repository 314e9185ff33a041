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
if hashlib.sha256(read("/app/data/pixel_export.csv").encode()).hexdigest() != "c7001c19904498d48e09348c5ecff39c4a0500f353df52a3919b8289bef6ff3d":
    fail("the CSV file was modified")
if not os.path.isfile("/app/club.db"):
    fail("/app/club.db is missing")
try:
    con = sqlite3.connect("file:/app/club.db?mode=ro", uri=True)
    sql = con.execute("SELECT sql FROM sqlite_master WHERE name = 'members'").fetchall()
    rows = con.execute("SELECT * FROM members ORDER BY login").fetchall()
except sqlite3.Error as e:
    fail(f"cannot read the table: {e}")
if sql != [('CREATE TABLE members (login TEXT PRIMARY KEY, full_name TEXT NOT NULL, age INTEGER NOT NULL, points INTEGER NOT NULL) STRICT',)]:
    fail(f"the definition of members changed: {sql}")
want = [('u_120', 'Lumen', 421, 454), ('u_125', 'Raven, maple', 390, 790), ('u_135', 'Juniper', 67, 23), ('u_174', 'Orbit, harbor', 60, 730), ('u_270', 'Vertex, sierra', 212, 656), ('u_437', 'Delta', 466, 315), ('u_589', 'Tango', 318, 599), ('u_593', 'Alpha, sierra', 335, 661), ('u_623', 'Lumen, tango', 289, 486), ('u_712', 'Pixel', 63, 324), ('u_885', 'Kepler', 206, 276), ('u_979', 'Juniper', 75, 754)]
if len(rows) != len(want):
    fail(f"members has {len(rows)} rows, expected {len(want)} (2 old + 10 imported)")
if rows != want:
    bad = [r for r in rows if r not in want][:3]
    fail(f"members holds rows that are not in the data (header row? wrong column?): {bad}")
print("PASS")
