#!/bin/bash
set -e
cat > /app/config.json <<'EOF'
{
  "name": "fjord",
  "port": 8794,
  "workers": 16,
  "debug": false
}
EOF
python3 /app/app.py
