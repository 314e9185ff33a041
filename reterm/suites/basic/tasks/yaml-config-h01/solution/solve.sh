#!/bin/bash
set -e
cat > /app/config.yaml <<'EOF'
# settings for the pixel service
name: pixel
cache:
  backend: memory
  ttl: 1010
  enabled: true
logging:
  level: debug
  file: /app/logs/app.log
  limits:
    max_items: 305
    burst: 11
database:
  name: harbor_db
  user: orbit
  timeout: 36
storage:
  path: /app/umber
  max_mb: 3341
  compress: false
EOF
python3 /app/app.py
