#!/bin/bash
set -e
cat > /app/config.yaml <<'EOF'
# settings for the gamma service
name: gamma
database:
  name: sierra_db
  user: harbor
  timeout: 24
logging:
  level: debug
  file: /app/logs/app.log
  limits:
    max_items: 487
    burst: 13
storage:
  path: /app/fjord
  max_mb: 733
  compress: false
server:
  host: 127.0.0.1
  port: 7013
  workers: 5
EOF
python3 /app/app.py
