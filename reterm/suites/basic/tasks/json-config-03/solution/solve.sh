#!/bin/bash
set -e
cat > /app/config.json <<'EOF'
{
  "name": "bravo",
  "port": 6160,
  "workers": 2,
  "debug": false
}
EOF
python3 /app/app.py
