#!/bin/bash
set -e
cat > /app/config.yaml <<'EOF'
# settings for the gamma service
name: gamma
cache:
  backend: disk
  ttl: 1301
  enabled: true
  limits:
    max_items: 407
    burst: 20
logging:
  level: info
  file: /app/logs/app.log
storage:
  path: /app/gamma
  max_mb: 1896
  compress: false
EOF
python3 /app/app.py
