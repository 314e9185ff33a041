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
if cols != [('id', 'INTEGER', 0, 1), ('name', 'TEXT', 1, 0), ('stock', 'INTEGER', 1, 0), ('supplier', 'TEXT', 0, 0), ('band', 'TEXT', 1, 0)]:
    fail(f"products has the columns {cols}, expected [('id', 'INTEGER', 0, 1), ('name', 'TEXT', 1, 0), ('stock', 'INTEGER', 1, 0), ('supplier', 'TEXT', 0, 0), ('band', 'TEXT', 1, 0)]")
if rows != [(1, 'raven', 26, None, 'cold'), (2, 'harbor', 11, 'x1', 'cold'), (3, 'umber', 38, 'raven41', 'cold'), (4, 'quartz', 37, 'maple23', 'cold'), (5, 'cedar', 93, 'quartz33', 'hot'), (6, 'pixel', 87, 'umber47', 'hot'), (7, 'delta', 15, None, 'cold'), (8, 'vertex', 68, 'ember73', 'cold')]:
    fail(f"products holds {rows}, expected [(1, 'raven', 26, None, 'cold'), (2, 'harbor', 11, 'x1', 'cold'), (3, 'umber', 38, 'raven41', 'cold'), (4, 'quartz', 37, 'maple23', 'cold'), (5, 'cedar', 93, 'quartz33', 'hot'), (6, 'pixel', 87, 'umber47', 'hot'), (7, 'delta', 15, None, 'cold'), (8, 'vertex', 68, 'ember73', 'cold')]")
if tables != ['products', 'schema_version']:
    fail(f"the database has the tables {tables}")
if version != [(2,)]:
    fail(f"schema_version is {version}, expected 2: the migration was not applied")
if 'idx_products_band' and 'idx_products_band' not in indexes:
    fail("the migration's index idx_products_band is missing")
print("PASS")
