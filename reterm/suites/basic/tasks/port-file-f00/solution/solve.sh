#!/bin/bash
set -e
rm -f /app/run/sierra.port
python3 /app/server.py > /tmp/sierra-server.log 2>&1 &
for i in $(seq 100); do [ -s /app/run/sierra.port ] && break; sleep 0.1; done
port=$(cat /app/run/sierra.port)
SIERRA_PORT="$port" python3 /app/client.py
wait
