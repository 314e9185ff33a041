#!/bin/bash
set -e
rm -f /app/var/lumen-server.port
python3 /app/server.py > /tmp/lumen-server.log 2>&1 &
for i in $(seq 100); do [ -s /app/var/lumen-server.port ] && break; sleep 0.1; done
port=$(sed -n 's/^port=//p' /app/var/lumen-server.port)
LUMEN_PORT="$port" python3 /app/client.py
wait
