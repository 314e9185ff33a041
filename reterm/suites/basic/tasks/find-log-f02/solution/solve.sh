#!/bin/bash
set -e
log=$(find /app/data -name 'kepler-db.log' -type f | head -n 1)
grep -c ' ERROR ' "$log" > /app/error_count.txt
