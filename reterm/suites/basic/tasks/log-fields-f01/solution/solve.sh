#!/bin/bash
set -e
awk 'NR > 1 {s[$5]++} END {for (k in s) print k, s[k]}' /app/logs/umber-proxy.log | LC_ALL=C sort > /app/report.txt
