#!/bin/bash
set -e
cat > /app/etc/units/gamma.service <<'EOF'
[Unit]
Description=Gamma queue consumer
After=network.target

[Service]
Type=notify
ExecStart=/app/bin/gamma --config /app/etc/gamma.toml --port 3642 --verbose
WorkingDirectory=/app/srv/gamma
Restart=on-abnormal
RestartSec=20
Environment=GAMMA_MODE=prod
TimeoutStopSec=48s

[Install]
WantedBy=multi-user.target
EOF
/app/bin/validate-unit /app/etc/units/gamma.service
