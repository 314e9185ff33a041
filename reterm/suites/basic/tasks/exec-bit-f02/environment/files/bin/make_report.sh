#!/bin/bash
# Report generator: sums the numbers in /app/data/values.txt.
set -e
total=0
while read -r v; do total=$((total + v)); done < /app/data/values.txt
echo "report=tango total=$total" > /app/report.txt
