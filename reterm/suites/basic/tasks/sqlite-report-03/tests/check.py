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
got = read("/app/report.csv").splitlines()
if got != ['west,1381', 'islands,990', 'north,593']:
    fail(f"report.csv is {got!r}, expected ['west,1381', 'islands,990', 'north,593']")
try:
    con = sqlite3.connect("file:/app/ops_prod.db?mode=ro", uri=True)
    n, total = con.execute("SELECT COUNT(*), SUM(amount) FROM shop_orders").fetchone()
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if (n, total) != (20, 3621):
    fail("the database was modified")
print("PASS")
