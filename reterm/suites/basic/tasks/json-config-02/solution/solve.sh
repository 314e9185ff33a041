#!/bin/bash
set -e
cat > /app/config.json <<'EOF'
{
  "name": "umber",
  "port": 5613,
  "workers": 16,
  "debug": false
}
EOF
python3 /app/app.py
