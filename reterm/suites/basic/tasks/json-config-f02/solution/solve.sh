#!/bin/bash
set -e
cat > /app/config.json <<'EOF'
{
  "name": "tango",
  "port": 5623,
  "workers": 3,
  "debug": false
}
EOF
python3 /app/app.py
