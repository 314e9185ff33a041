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
if not os.path.isfile("/app/inventory.db"):
    fail("/app/inventory.db is missing")
try:
    con = sqlite3.connect("file:/app/inventory.db?mode=ro", uri=True)
    cols = [(r[1], r[2].upper(), r[3], r[5]) for r in con.execute("PRAGMA table_info(customers)")]
    rows = con.execute("SELECT * FROM customers ORDER BY id").fetchall()
    tables = sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    version = con.execute("SELECT version FROM schema_version").fetchall()
    indexes = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")]
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if cols != [('id', 'INTEGER', 0, 1), ('name', 'TEXT', 1, 0), ('orders', 'INTEGER', 1, 0), ('email', 'TEXT', 1, 0)]:
    fail(f"customers has the columns {cols}, expected [('id', 'INTEGER', 0, 1), ('name', 'TEXT', 1, 0), ('orders', 'INTEGER', 1, 0), ('email', 'TEXT', 1, 0)]")
if rows != [(1, 'orbit', 2, 'none'), (2, 'quartz', 12, 'x1'), (3, 'fjord', 81, 'bravo26'), (4, 'alpha', 60, 'cedar11'), (5, 'nova', 71, 'none'), (6, 'ember', 45, 'nova9'), (7, 'sierra', 65, 'alpha99'), (8, 'lumen', 93, 'nova91'), (9, 'delta', 85, 'none')]:
    fail(f"customers holds {rows}, expected [(1, 'orbit', 2, 'none'), (2, 'quartz', 12, 'x1'), (3, 'fjord', 81, 'bravo26'), (4, 'alpha', 60, 'cedar11'), (5, 'nova', 71, 'none'), (6, 'ember', 45, 'nova9'), (7, 'sierra', 65, 'alpha99'), (8, 'lumen', 93, 'nova91'), (9, 'delta', 85, 'none')]")
if tables != ['customers', 'schema_version']:
    fail(f"the database has the tables {tables}")
if version != [(15,)]:
    fail(f"schema_version is {version}, expected 15: the migration was not applied")
if '' and '' not in indexes:
    fail("the migration's index  is missing")
print("PASS")
