#!/bin/bash
set -e
python3 - <<'EOF'
import csv, re, sqlite3
with open("/app/data/ember_export.csv", newline="") as f:
    rows = list(csv.DictReader(f, delimiter=','))
con = sqlite3.connect("/app/weather.db")
for r in rows:
    con.execute("INSERT INTO stations (code, city, altitude, rain_mm) VALUES (?, ?, ?, ?)",
                (r["code"], r["city"], int(r["altitude"]), int(re.sub(r"[^0-9]", "", r["rain_mm"]))))
con.commit()
EOF
