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
if got != ['lis,477', 'ams,458', 'ber,455']:
    fail(f"report.csv is {got!r}, expected ['lis,477', 'ams,458', 'ber,455']")
try:
    con = sqlite3.connect("file:/app/shop_2024.db?mode=ro", uri=True)
    n, total = con.execute("SELECT COUNT(*), SUM(gross_kg) FROM shipments").fetchone()
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if (n, total) != (26, 6149):
    fail("the database was modified")
print("PASS")
