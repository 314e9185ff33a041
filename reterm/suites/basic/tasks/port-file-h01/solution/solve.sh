#!/bin/bash
set -e
rm -f /app/tmp/sierra.port
python3 /app/server.py > /tmp/sierra-server.log 2>&1 &
for i in $(seq 100); do [ -s /app/tmp/sierra.port ] && break; sleep 0.1; done
port=$(python3 -c 'import json; print(json.load(open("/app/tmp/sierra.port"))["port"])')
SIERRA_PORT="$port" python3 /app/client.py
wait
