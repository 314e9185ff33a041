#!/bin/bash
# Counts the ERROR lines of every log in /app/logs into /app/report/errors.txt.
set -euo pipefail
if [ ! -d /app/logs ]; then
  echo "error: /app/logs is missing" >&2
  exit 1
fi
mkdir -p /app/report
files=0
total=0
for f in /app/logs/*.log; do
  n=$(grep ERROR "$f" | wc -l)
  total=$((total + n))
  files=$((files + 1))
  echo "$(basename "$f" .log $n"
done > /app/report/errors.txt
echo "total $total in $files logs" >> /app/report/errors.txt
echo "nova: report written"
