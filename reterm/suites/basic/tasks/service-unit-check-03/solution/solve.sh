#!/bin/bash
set -e
cat > /app/etc/units/gamma.service <<'EOF'
[Unit]
Description=Gamma metrics collector
After=network.target

[Service]
Type=simple
ExecStart=/app/bin/gamma --config /app/etc/gamma.toml --port 3697
WorkingDirectory=/app/srv/gamma
Restart=on-failure
RestartSec=3
User=app

[Install]
WantedBy=multi-user.target
EOF
/app/bin/validate-unit /app/etc/units/gamma.service
