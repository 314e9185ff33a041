#!/bin/bash
set -e
cat > /app/etc/units/orbit.service <<'EOF'
[Unit]
Description=Orbit cache warmer
After=network.target

[Service]
Type=simple
ExecStart=/app/bin/orbit --config /app/etc/orbit.toml --port 2481 --verbose
WorkingDirectory=/app/srv/orbit
Restart=on-abnormal
RestartSec=5
User=orbit
TimeoutStopSec=33s

[Install]
WantedBy=multi-user.target
EOF
/app/bin/validate-unit /app/etc/units/orbit.service
