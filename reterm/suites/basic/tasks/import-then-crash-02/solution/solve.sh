#!/bin/bash
set -e
cat > /app/report.py <<'EOF'
import csv
import json

from readings4 import parse_row

totals = {}
with open("/app/data/readings.csv") as f:
    for row in csv.DictReader(f):
        try:
            key, value = parse_row(row)
        except (ValueError, TypeError):
            continue
        totals[key] = totals.get(key, 0) + value
with open("/app/report.json", "w") as f:
    json.dump(totals, f, indent=2, sort_keys=True)
EOF
PYTHONPATH=/app/lib python3 /app/report.py
