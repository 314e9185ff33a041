#!/bin/bash
set -e
cat > /app/config.json <<'EOF'
{
  "name": "harbor",
  "port": 7055,
  "workers": 8,
  "debug": false
}
EOF
python3 /app/app.py
