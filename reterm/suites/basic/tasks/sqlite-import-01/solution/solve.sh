#!/bin/bash
set -e
python3 - <<'EOF'
import csv, re, sqlite3
with open("/app/data/quartz_export.csv", newline="") as f:
    rows = list(csv.DictReader(f, delimiter=';'))
con = sqlite3.connect("/app/catalog_v2.db")
for r in rows:
    con.execute("INSERT INTO parts (sku, name, qty, price) VALUES (?, ?, ?, ?)",
                (r["sku"], r["name"], int(r["qty"]), int(re.sub(r"[^0-9]", "", r["price"]))))
con.commit()
EOF
