#!/bin/bash
set -e
awk -F' [|] ' 'NR > 1 {s[$5] += $3} END {for (k in s) print k, s[k]}' /app/logs/alpha-access.log | LC_ALL=C sort > /app/report.txt
