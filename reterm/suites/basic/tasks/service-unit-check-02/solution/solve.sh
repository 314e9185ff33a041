#!/bin/bash
set -e
cat > /app/etc/units/gamma.service <<'EOF'
[Unit]
Description=Gamma cache warmer
After=network.target

[Service]
Type=notify
ExecStart=/app/bin/gamma --config /app/etc/gamma.toml --port 2336
WorkingDirectory=/app/srv/gamma
Restart=on-abnormal
RestartSec=3s
User=nobody
Environment=GAMMA_MODE=prod
TimeoutStopSec=26s

[Install]
WantedBy=multi-user.target
EOF
/app/bin/validate-unit /app/etc/units/gamma.service
