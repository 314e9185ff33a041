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
if not os.path.isfile("/app/main.db"):
    fail("/app/main.db is missing")
try:
    con = sqlite3.connect("file:/app/main.db?mode=ro", uri=True)
    cols = [(r[1], r[2].upper(), r[3], r[5]) for r in con.execute("PRAGMA table_info(customers)")]
    rows = con.execute("SELECT * FROM customers ORDER BY id").fetchall()
    tables = sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    version = con.execute("SELECT version FROM schema_version").fetchall()
    indexes = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")]
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if cols != [('id', 'INTEGER', 0, 1), ('name', 'TEXT', 1, 0), ('orders', 'INTEGER', 1, 0), ('email', 'TEXT', 1, 0)]:
    fail(f"customers has the columns {cols}, expected [('id', 'INTEGER', 0, 1), ('name', 'TEXT', 1, 0), ('orders', 'INTEGER', 1, 0), ('email', 'TEXT', 1, 0)]")
if rows != [(1, 'quartz', 17, 'none'), (2, 'bravo', 13, 'bravo72'), (3, 'gamma', 1, 'none'), (4, 'indigo', 99, 'pixel58'), (5, 'harbor', 49, 'fjord28'), (6, 'delta', 11, 'juniper61'), (7, 'fjord', 46, 'harbor62'), (8, 'maple', 61, 'none')]:
    fail(f"customers holds {rows}, expected [(1, 'quartz', 17, 'none'), (2, 'bravo', 13, 'bravo72'), (3, 'gamma', 1, 'none'), (4, 'indigo', 99, 'pixel58'), (5, 'harbor', 49, 'fjord28'), (6, 'delta', 11, 'juniper61'), (7, 'fjord', 46, 'harbor62'), (8, 'maple', 61, 'none')]")
if tables != ['customers', 'schema_version']:
    fail(f"the database has the tables {tables}")
if version != [(8,)]:
    fail(f"schema_version is {version}, expected 8: the migration was not applied")
if '' and '' not in indexes:
    fail("the migration's index  is missing")
print("PASS")
