#!/bin/bash
set -e
cat > /app/etc/pixel.ini <<'EOF'
[cache]
backend = redis
ttl = 519
size = 132

[database]
host = harbor.db.lan
port = 4933
name = lumen
timeout = 18

[auth]
provider = oauth
timeout = 49
realm = bravo

[logging]
level = debug
file = /app/logs/service.log
rotate = yes
EOF
python3 /app/render.py
