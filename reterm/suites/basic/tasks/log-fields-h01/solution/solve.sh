#!/bin/bash
set -e
awk -F'\t' 'NR > 1 && $6 >= 400 {s[$2]++} END {for (k in s) print k, s[k]}' /app/logs/vertex-access.log | LC_ALL=C sort > /app/report.txt
