#!/bin/bash
set -e
log=$(find /app/data -name 'maple-api.log' -type f | head -n 1)
id=$(grep ' deploy ' "$log" | grep 'status=ok' | tail -n 1 \
     | sed 's/.*release=\([^ ]*\).*/\1/')
chmod +x /app/bin/activate
/app/bin/activate "$id"
