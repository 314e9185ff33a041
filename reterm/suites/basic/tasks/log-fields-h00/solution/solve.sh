#!/bin/bash
set -e
awk 'NR > 1 && $3 >= 400 {s[$6]++} END {for (k in s) print k, s[k]}' /app/logs/kepler-access.log | LC_ALL=C sort > /app/report.txt
