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
    cols = [(r[1], r[2].upper(), r[3], r[5]) for r in con.execute("PRAGMA table_info(devices)")]
    rows = con.execute("SELECT * FROM devices ORDER BY id").fetchall()
    tables = sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    version = con.execute("SELECT version FROM schema_version").fetchall()
    indexes = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")]
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if cols != [('id', 'INTEGER', 0, 1), ('hostname', 'TEXT', 1, 0), ('uptime_days', 'INTEGER', 1, 0), ('owner', 'TEXT', 0, 0), ('points', 'INTEGER', 0, 0), ('slug', 'TEXT', 0, 0)]:
    fail(f"devices has the columns {cols}, expected [('id', 'INTEGER', 0, 1), ('hostname', 'TEXT', 1, 0), ('uptime_days', 'INTEGER', 1, 0), ('owner', 'TEXT', 0, 0), ('points', 'INTEGER', 0, 0), ('slug', 'TEXT', 0, 0)]")
if rows != [(1, 'sierra', 78, None, 312, 'SIERRA'), (2, 'harbor', 33, 'nova20', 132, 'HARBOR'), (3, 'indigo', 81, None, 324, 'INDIGO'), (4, 'pixel', 84, 'lumen99', 336, 'PIXEL'), (5, 'orbit', 41, 'juniper44', 164, 'ORBIT'), (6, 'tango', 68, 'pixel22', 272, 'TANGO'), (7, 'gamma', 27, 'ember94', 108, 'GAMMA'), (8, 'kepler', 14, 'quartz84', 56, 'KEPLER'), (9, 'juniper', 33, 'orbit90', 132, 'JUNIPER')]:
    fail(f"devices holds {rows}, expected [(1, 'sierra', 78, None, 312, 'SIERRA'), (2, 'harbor', 33, 'nova20', 132, 'HARBOR'), (3, 'indigo', 81, None, 324, 'INDIGO'), (4, 'pixel', 84, 'lumen99', 336, 'PIXEL'), (5, 'orbit', 41, 'juniper44', 164, 'ORBIT'), (6, 'tango', 68, 'pixel22', 272, 'TANGO'), (7, 'gamma', 27, 'ember94', 108, 'GAMMA'), (8, 'kepler', 14, 'quartz84', 56, 'KEPLER'), (9, 'juniper', 33, 'orbit90', 132, 'JUNIPER')]")
if tables != ['devices', 'schema_version']:
    fail(f"the database has the tables {tables}")
if version != [(31,)]:
    fail(f"schema_version is {version}, expected 31: the migration was not applied")
if '' and '' not in indexes:
    fail("the migration's index  is missing")
print("PASS")
