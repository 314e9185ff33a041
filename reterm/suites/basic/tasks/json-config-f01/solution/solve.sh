#!/bin/bash
set -e
cat > /app/config.json <<'EOF'
{
  "name": "gamma",
  "port": 2140,
  "workers": 10,
  "debug": false
}
EOF
python3 /app/app.py
