#!/bin/bash
set -e
cat > /app/etc/sierra.ini <<'EOF'
[server]
host = 127.0.0.1
port = 8965
workers = 7

[cache]
backend = disk
ttl = 2162
size = 43

[logging]
level = debug
file = /app/logs/service.log
rotate = no

[database]
host = nova.db.lan
port = 5186
name = pixel
timeout = 18
EOF
python3 /app/render.py
