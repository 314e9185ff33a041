#!/bin/bash
set -e
cat > /app/etc/tango.ini <<'EOF'
[logging]
level = warning
file = /app/logs/service.log
rotate = yes

[server]
host = localhost
port = 8111
workers = 14

[auth]
provider = ldap
timeout = 68
realm = tango
EOF
python3 /app/render.py
