#!/bin/bash
set -e
cat > /app/etc/raven.ini <<'EOF'
[logging]
level = warning
file = /app/logs/service.log
rotate = no

[database]
host = maple.db.lan
port = 5727
name = nova
timeout = 7

[cache]
backend = redis
ttl = 1272
size = 456

[auth]
provider = ldap
timeout = 49
realm = lumen
EOF
python3 /app/render.py
