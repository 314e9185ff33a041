#!/bin/bash
set -e
cat > /app/etc/units/lumen.service <<'EOF'
[Unit]
Description=Lumen web frontend
After=network.target

[Service]
Type=exec
ExecStart=/app/bin/lumen --config /app/etc/lumen.toml --port 4092
WorkingDirectory=/app/srv/lumen
Restart=always
RestartSec=10s
User=app
TimeoutStopSec=5s

[Install]
WantedBy=multi-user.target
EOF
/app/bin/validate-unit /app/etc/units/lumen.service
