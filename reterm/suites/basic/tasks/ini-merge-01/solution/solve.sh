#!/bin/bash
set -e
cat > /app/etc/umber.ini <<'EOF'
[database]
host = maple.db.lan
port = 5488
name = ember
timeout = 45

[server]
host = 0.0.0.0
port = 6245
workers = 4

[auth]
provider = ldap
timeout = 76
realm = bravo

[logging]
level = warning
file = /app/logs/service.log
rotate = yes
EOF
python3 /app/render.py
