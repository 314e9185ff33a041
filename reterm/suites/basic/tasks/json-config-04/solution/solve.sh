#!/bin/bash
set -e
cat > /app/config.json <<'EOF'
{
  "name": "indigo",
  "port": 7562,
  "workers": 9,
  "debug": false
}
EOF
python3 /app/app.py
