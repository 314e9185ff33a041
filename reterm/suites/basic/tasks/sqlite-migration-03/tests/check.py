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
if not os.path.isfile("/app/app.db"):
    fail("/app/app.db is missing")
try:
    con = sqlite3.connect("file:/app/app.db?mode=ro", uri=True)
    cols = [(r[1], r[2].upper(), r[3], r[5]) for r in con.execute("PRAGMA table_info(products)")]
    rows = con.execute("SELECT * FROM products ORDER BY id").fetchall()
    tables = sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    version = con.execute("SELECT version FROM schema_version").fetchall()
    indexes = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")]
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if cols != [('id', 'INTEGER', 0, 1), ('name', 'TEXT', 1, 0), ('stock', 'INTEGER', 1, 0), ('supplier', 'TEXT', 0, 0), ('weight', 'INTEGER', 0, 0), ('tag', 'TEXT', 0, 0)]:
    fail(f"products has the columns {cols}, expected [('id', 'INTEGER', 0, 1), ('name', 'TEXT', 1, 0), ('stock', 'INTEGER', 1, 0), ('supplier', 'TEXT', 0, 0), ('weight', 'INTEGER', 0, 0), ('tag', 'TEXT', 0, 0)]")
if rows != [(1, 'juniper', 40, None, 120, 'JUNIPER'), (2, 'bravo', 14, 'orbit24', 42, 'BRAVO'), (3, 'umber', 14, 'umber19', 42, 'UMBER'), (4, 'raven', 33, None, 99, 'RAVEN'), (5, 'harbor', 74, 'fjord29', 222, 'HARBOR'), (6, 'lumen', 72, 'maple93', 216, 'LUMEN'), (7, 'kepler', 52, 'kepler65', 156, 'KEPLER'), (8, 'delta', 34, None, 102, 'DELTA')]:
    fail(f"products holds {rows}, expected [(1, 'juniper', 40, None, 120, 'JUNIPER'), (2, 'bravo', 14, 'orbit24', 42, 'BRAVO'), (3, 'umber', 14, 'umber19', 42, 'UMBER'), (4, 'raven', 33, None, 99, 'RAVEN'), (5, 'harbor', 74, 'fjord29', 222, 'HARBOR'), (6, 'lumen', 72, 'maple93', 216, 'LUMEN'), (7, 'kepler', 52, 'kepler65', 156, 'KEPLER'), (8, 'delta', 34, None, 102, 'DELTA')]")
if tables != ['products', 'schema_version']:
    fail(f"the database has the tables {tables}")
if version != [(12,)]:
    fail(f"schema_version is {version}, expected 12: the migration was not applied")
if '' and '' not in indexes:
    fail("the migration's index  is missing")
print("PASS")
