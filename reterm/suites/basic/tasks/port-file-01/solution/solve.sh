#!/bin/bash
set -e
rm -f /app/var/alpha-server.port
python3 /app/server.py > /tmp/alpha-server.log 2>&1 &
for i in $(seq 100); do [ -s /app/var/alpha-server.port ] && break; sleep 0.1; done
port=$(python3 -c 'import json; print(json.load(open("/app/var/alpha-server.port"))["port"])')
ALPHA_PORT="$port" python3 /app/client.py
wait
