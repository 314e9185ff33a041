#!/bin/bash
set -e
{ echo "region,total"; awk '{s[$1]+=$2} END {for (r in s) print r "," s[r]}' /app/sales.txt \
    | sort -t, -k2,2nr; } > /app/totals.csv
