#!/bin/bash
set -e
cat > /app/config.yaml <<'EOF'
# settings for the bravo service
name: bravo
storage:
  path: /app/orbit
  max_mb: 869
  compress: false
database:
  name: delta_db
  user: tango
  timeout: 19
server:
  host: 127.0.0.1
  port: 4421
  workers: 1
  limits:
    max_items: 422
    burst: 5
EOF
python3 /app/app.py
