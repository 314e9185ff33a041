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
if hashlib.sha256(read("/app/data/pixel_export.csv").encode()).hexdigest() != "5f5d3cf3cf56ef5f87e5cfb2e914c89d6d3b10927f2c72b700c0901ee9f0bcb0":
    fail("the CSV file was modified")
if not os.path.isfile("/app/club_v2.db"):
    fail("/app/club_v2.db is missing")
try:
    con = sqlite3.connect("file:/app/club_v2.db?mode=ro", uri=True)
    sql = con.execute("SELECT sql FROM sqlite_master WHERE name = 'members'").fetchall()
    rows = con.execute("SELECT * FROM members ORDER BY login").fetchall()
except sqlite3.Error as e:
    fail(f"cannot read the table: {e}")
if sql != [('CREATE TABLE members (login TEXT PRIMARY KEY, full_name TEXT NOT NULL, age INTEGER NOT NULL, points INTEGER NOT NULL) STRICT',)]:
    fail(f"the definition of members changed: {sql}")
want = [('u_130', 'Sierra', 479, 722), ('u_245', 'Ember', 172, 247), ('u_281', 'Pixel', 106, 488), ('u_380', 'Alpha', 66, 403), ('u_392', 'Alpha', 388, 136), ('u_431', 'Delta', 285, 127), ('u_452', 'Alpha, sierra', 93, 95), ('u_559', 'Tango', 11, 760), ('u_585', 'Juniper', 256, 716), ('u_646', 'Indigo', 94, 499), ('u_720', 'Alpha', 92, 134), ('u_884', 'Orbit', 353, 703), ('u_902', 'Cedar, quartz', 153, 21)]
if len(rows) != len(want):
    fail(f"members has {len(rows)} rows, expected {len(want)} (3 old + 10 imported)")
if rows != want:
    bad = [r for r in rows if r not in want][:3]
    fail(f"members holds rows that are not in the data (header row? wrong column?): {bad}")
print("PASS")
