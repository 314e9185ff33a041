#!/bin/bash
set -e
cat > /app/config.json <<'EOF'
{
  "name": "gamma",
  "port": 8569,
  "workers": 8,
  "debug": false
}
EOF
python3 /app/app.py
