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
if got != ['alpha.test,3', 'harbor.test,3', 'pixel.test,3', 'quartz.test,4', 'sierra.test,3']:
    fail(f"report.csv is {got!r}, expected ['alpha.test,3', 'harbor.test,3', 'pixel.test,3', 'quartz.test,4', 'sierra.test,3']")
try:
    con = sqlite3.connect("file:/app/ops_2024.db?mode=ro", uri=True)
    n, total = con.execute("SELECT COUNT(*), SUM(views) FROM visits_v2").fetchone()
except sqlite3.Error as e:
    fail(f"cannot read the database: {e}")
if (n, total) != (16, 3365):
    fail("the database was modified")
print("PASS")
