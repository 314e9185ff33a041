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
if not os.path.isfile("/app/crm.db"):
    fail("/app/crm.db is missing")
try:
    con = sqlite3.connect("file:/app/crm.db?mode=ro", uri=True)
    cols = [(r[1], r[2].upper(), r[3], r[5]) for r in con.execute("PRAGMA table_info(products)")]
    rows = con.execute("SELECT * FROM products ORDER BY id").fetchall()
    tables = sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    version = con.execute("SELECT version FROM schema_version").fetchall()
    indexes = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")]
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if cols != [('id', 'INTEGER', 0, 1), ('name', 'TEXT', 1, 0), ('stock', 'INTEGER', 1, 0), ('supplier', 'TEXT', 0, 0), ('score', 'INTEGER', 0, 0), ('code', 'TEXT', 0, 0)]:
    fail(f"products has the columns {cols}, expected [('id', 'INTEGER', 0, 1), ('name', 'TEXT', 1, 0), ('stock', 'INTEGER', 1, 0), ('supplier', 'TEXT', 0, 0), ('score', 'INTEGER', 0, 0), ('code', 'TEXT', 0, 0)]")
if rows != [(1, 'ember', 50, None, 250, 'EMBER'), (2, 'bravo', 28, 'x1', 140, 'BRAVO'), (3, 'orbit', 65, 'juniper46', 325, 'ORBIT'), (4, 'pixel', 86, None, 430, 'PIXEL'), (5, 'alpha', 26, 'harbor80', 130, 'ALPHA'), (6, 'raven', 15, 'vertex55', 75, 'RAVEN'), (7, 'kepler', 97, None, 485, 'KEPLER'), (8, 'sierra', 13, None, 65, 'SIERRA'), (9, 'gamma', 96, 'alpha58', 480, 'GAMMA')]:
    fail(f"products holds {rows}, expected [(1, 'ember', 50, None, 250, 'EMBER'), (2, 'bravo', 28, 'x1', 140, 'BRAVO'), (3, 'orbit', 65, 'juniper46', 325, 'ORBIT'), (4, 'pixel', 86, None, 430, 'PIXEL'), (5, 'alpha', 26, 'harbor80', 130, 'ALPHA'), (6, 'raven', 15, 'vertex55', 75, 'RAVEN'), (7, 'kepler', 97, None, 485, 'KEPLER'), (8, 'sierra', 13, None, 65, 'SIERRA'), (9, 'gamma', 96, 'alpha58', 480, 'GAMMA')]")
if tables != ['products', 'schema_version']:
    fail(f"the database has the tables {tables}")
if version != [(17,)]:
    fail(f"schema_version is {version}, expected 17: the migration was not applied")
if '' and '' not in indexes:
    fail("the migration's index  is missing")
print("PASS")
