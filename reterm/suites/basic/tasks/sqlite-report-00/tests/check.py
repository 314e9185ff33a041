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
if got != ['coast,7', 'east,3', 'north,5']:
    fail(f"report.csv is {got!r}, expected ['coast,7', 'east,3', 'north,5']")
try:
    con = sqlite3.connect("file:/app/stats.db?mode=ro", uri=True)
    n, total = con.execute("SELECT COUNT(*), SUM(amount) FROM tx_orders").fetchone()
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if (n, total) != (15, 3361):
    fail("the database was modified")
print("PASS")
