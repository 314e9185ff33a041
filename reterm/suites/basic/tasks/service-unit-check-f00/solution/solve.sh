#!/bin/bash
set -e
cat > /app/etc/units/quartz.service <<'EOF'
[Unit]
Description=Quartz mail relay
After=network.target

[Service]
Type=exec
ExecStart=/app/bin/quartz --config /app/etc/quartz.toml --port 7745
WorkingDirectory=/app/srv/quartz
Restart=on-failure
RestartSec=2
User=app
Environment=QUARTZ_MODE=prod
TimeoutStopSec=38s

[Install]
WantedBy=multi-user.target
EOF
/app/bin/validate-unit /app/etc/units/quartz.service
