#!/bin/bash
set -e
python3 - <<'EOF'
import csv, re, sqlite3
with open("/app/data/pixel_export.csv", newline="") as f:
    rows = list(csv.DictReader(f, delimiter=';'))
con = sqlite3.connect("/app/club_v2.db")
for r in rows:
    con.execute("INSERT INTO members (login, full_name, age, points) VALUES (?, ?, ?, ?)",
                (r["login"], r["full_name"], int(r["age"]), int(re.sub(r"[^0-9]", "", r["points"]))))
con.commit()
EOF
