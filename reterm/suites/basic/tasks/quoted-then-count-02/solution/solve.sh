#!/bin/bash
set -e
python3 - <<'EOF'
import collections, csv
with open("/app/data/orders.csv", newline="") as f:
    counts = collections.Counter(row["city"] for row in csv.DictReader(f))
with open("/app/city_counts.txt", "w") as f:
    for value, n in counts.most_common():
        f.write(f"{n} {value}\n")
EOF
