#!/bin/bash
set -e
cat > /app/etc/harbor.ini <<'EOF'
[cache]
backend = disk
ttl = 1729
size = 24

[logging]
level = info
file = /app/logs/service.log
rotate = no

[auth]
provider = local
timeout = 20
realm = fjord
EOF
python3 /app/render.py
