#!/bin/bash
set -e
awk -F'\t' 'NR > 1 {s[$4] += $3} END {for (k in s) print k, s[k]}' /app/logs/quartz-proxy.log | LC_ALL=C sort > /app/report.txt
