#!/bin/bash
set -e
cat > /app/config.yaml <<'EOF'
# settings for the bravo service
name: bravo
logging:
  level: debug
  file: /app/logs/app.log
storage:
  path: /app/maple
  max_mb: 1248
  compress: false
  limits:
    max_items: 249
    burst: 19
database:
  name: kepler_db
  user: ember
  timeout: 6
server:
  host: 127.0.0.1
  port: 8590
  workers: 4
EOF
python3 /app/app.py
