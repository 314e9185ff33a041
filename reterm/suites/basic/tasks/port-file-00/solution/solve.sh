#!/bin/bash
set -e
rm -f /app/tmp/vertex.port
python3 /app/server.py > /tmp/vertex-server.log 2>&1 &
for i in $(seq 100); do [ -s /app/tmp/vertex.port ] && break; sleep 0.1; done
port=$(cat /app/tmp/vertex.port)
VERTEX_PORT="$port" python3 /app/client.py
wait
