#!/bin/bash
set -e
cat > /app/config.json <<'EOF'
{
  "name": "bravo",
  "port": 4964,
  "workers": 14,
  "debug": false
}
EOF
python3 /app/app.py
