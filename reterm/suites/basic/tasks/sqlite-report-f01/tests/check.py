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
if got != ['cedar.test,358', 'harbor.test,1572', 'nova.test,1060', 'vertex.test,1047']:
    fail(f"report.csv is {got!r}, expected ['cedar.test,358', 'harbor.test,1572', 'nova.test,1060', 'vertex.test,1047']")
try:
    con = sqlite3.connect("file:/app/metrics_prod.db?mode=ro", uri=True)
    n, total = con.execute("SELECT COUNT(*), SUM(views_total) FROM page_views").fetchone()
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if (n, total) != (17, 4037):
    fail("the database was modified")
print("PASS")
