#!/bin/bash
set -e
awk -F' [|] ' 'NR > 1 {s[$4]++} END {for (k in s) print k, s[k]}' /app/logs/umber-gateway.log | LC_ALL=C sort > /app/report.txt
