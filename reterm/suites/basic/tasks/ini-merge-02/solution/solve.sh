#!/bin/bash
set -e
cat > /app/etc/orbit.ini <<'EOF'
[logging]
level = info
file = /app/logs/service.log
rotate = no

[cache]
backend = disk
ttl = 668
size = 296

[auth]
provider = oauth
timeout = 116
realm = gamma
EOF
python3 /app/render.py
