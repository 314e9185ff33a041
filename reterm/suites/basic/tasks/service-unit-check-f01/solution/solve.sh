#!/bin/bash
set -e
cat > /app/etc/units/alpha.service <<'EOF'
[Unit]
Description=Alpha mail relay
After=network.target

[Service]
Type=exec
ExecStart=/app/bin/alpha --config /app/etc/alpha.toml --port 5295 --verbose
WorkingDirectory=/app/srv/alpha
Restart=always
RestartSec=2
Environment=ALPHA_MODE=prod

[Install]
WantedBy=multi-user.target
EOF
/app/bin/validate-unit /app/etc/units/alpha.service
