#!/bin/bash
set -e
python3 - <<'EOF'
import csv
from decimal import Decimal
agg = {}
with open("/app/data/sales.csv", newline="") as f:
    for row in csv.DictReader(f):
        n, t = agg.get(row["category"], (0, Decimal(0)))
        agg[row["category"]] = (n + 1, t + Decimal(row["amount"]))
with open("/app/summary.csv", "w") as f:
    f.write("category,orders,total\n")
    for c, (n, t) in sorted(agg.items()):
        f.write(f"{c},{n},{t:.2f}\n")
EOF
