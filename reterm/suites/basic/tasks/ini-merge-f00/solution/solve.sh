#!/bin/bash
set -e
cat > /app/etc/alpha.ini <<'EOF'
[cache]
backend = redis
ttl = 3600
size = 256

[server]
host = 127.0.0.1
port = 7745
workers = 5

[logging]
level = debug
file = /app/logs/service.log
rotate = no
EOF
python3 /app/render.py
