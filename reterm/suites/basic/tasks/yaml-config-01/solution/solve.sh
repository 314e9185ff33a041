#!/bin/bash
set -e
cat > /app/config.yaml <<'EOF'
# settings for the bravo service
name: bravo
server:
  host: 127.0.0.1
  port: 4377
  workers: 3
storage:
  path: /app/indigo
  max_mb: 1386
  compress: false
  limits:
    max_items: 351
    burst: 13
database:
  name: delta_db
  user: maple
  timeout: 59
EOF
python3 /app/app.py
