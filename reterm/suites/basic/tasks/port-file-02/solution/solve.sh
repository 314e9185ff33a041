#!/bin/bash
set -e
rm -f /app/var/delta-server.port
python3 /app/server.py > /tmp/delta-server.log 2>&1 &
for i in $(seq 100); do [ -s /app/var/delta-server.port ] && break; sleep 0.1; done
port=$(sed -n 's/^port=//p' /app/var/delta-server.port)
python3 /app/client.py --port "$port"
wait
