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
    cols = [(r[1], r[2].upper(), r[3], r[5]) for r in con.execute("PRAGMA table_info(tickets)")]
    rows = con.execute("SELECT * FROM tickets ORDER BY id").fetchall()
    tables = sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    version = con.execute("SELECT version FROM schema_version").fetchall()
    indexes = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")]
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if cols != [('id', 'INTEGER', 0, 1), ('title', 'TEXT', 1, 0), ('priority', 'INTEGER', 1, 0), ('assignee', 'TEXT', 0, 0), ('tier', 'TEXT', 1, 0)]:
    fail(f"tickets has the columns {cols}, expected [('id', 'INTEGER', 0, 1), ('title', 'TEXT', 1, 0), ('priority', 'INTEGER', 1, 0), ('assignee', 'TEXT', 0, 0), ('tier', 'TEXT', 1, 0)]")
if rows != [(1, 'tango', 19, None, 'low'), (2, 'ember', 72, 'raven36', 'high'), (3, 'sierra', 16, 'sierra96', 'low'), (4, 'juniper', 19, 'umber41', 'low'), (5, 'quartz', 45, 'tango23', 'low'), (6, 'orbit', 95, None, 'high'), (7, 'harbor', 82, None, 'high')]:
    fail(f"tickets holds {rows}, expected [(1, 'tango', 19, None, 'low'), (2, 'ember', 72, 'raven36', 'high'), (3, 'sierra', 16, 'sierra96', 'low'), (4, 'juniper', 19, 'umber41', 'low'), (5, 'quartz', 45, 'tango23', 'low'), (6, 'orbit', 95, None, 'high'), (7, 'harbor', 82, None, 'high')]")
if tables != ['schema_version', 'tickets']:
    fail(f"the database has the tables {tables}")
if version != [(22,)]:
    fail(f"schema_version is {version}, expected 22: the migration was not applied")
if 'idx_tickets_tier' and 'idx_tickets_tier' not in indexes:
    fail("the migration's index idx_tickets_tier is missing")
print("PASS")
