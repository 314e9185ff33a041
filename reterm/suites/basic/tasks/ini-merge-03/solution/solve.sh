#!/bin/bash
set -e
cat > /app/etc/pixel.ini <<'EOF'
[cache]
backend = redis
ttl = 432
size = 305

[logging]
level = debug
file = /app/logs/service.log
rotate = yes

[server]
host = 127.0.0.1
port = 9082
workers = 13

[auth]
provider = oauth
timeout = 53
realm = ember
EOF
python3 /app/render.py
