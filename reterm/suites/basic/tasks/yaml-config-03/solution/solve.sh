#!/bin/bash
set -e
cat > /app/config.yaml <<'EOF'
# settings for the sierra service
name: sierra
storage:
  path: /app/ember
  max_mb: 1163
  compress: false
  limits:
    max_items: 82
    burst: 3
database:
  name: harbor_db
  user: quartz
  timeout: 35
cache:
  backend: memory
  ttl: 85
  enabled: true
logging:
  level: debug
  file: /app/logs/app.log
EOF
python3 /app/app.py
