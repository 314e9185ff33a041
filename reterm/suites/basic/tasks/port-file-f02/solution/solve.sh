#!/bin/bash
set -e
rm -f /app/run/delta.port
python3 /app/server.py > /tmp/delta-server.log 2>&1 &
for i in $(seq 100); do [ -s /app/run/delta.port ] && break; sleep 0.1; done
port=$(python3 -c 'import json; print(json.load(open("/app/run/delta.port"))["port"])')
python3 /app/client.py --port "$port"
wait
