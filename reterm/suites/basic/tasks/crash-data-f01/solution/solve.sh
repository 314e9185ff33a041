#!/bin/bash
set -e
cat > /app/report.py <<'EOF'
import csv
import json

totals = {}
with open("/app/data/readings.csv") as f:
    for row in csv.DictReader(f):
        try:
            value = int(row["value"])
        except ValueError:
            continue
        totals[row["sensor"]] = totals.get(row["sensor"], 0) + value
with open("/app/report.json", "w") as f:
    json.dump(totals, f, indent=2, sort_keys=True)
EOF
python3 /app/report.py
