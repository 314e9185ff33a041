#!/bin/bash
set -e
cat > /app/config.yaml <<'EOF'
# settings for the gamma service
name: gamma
storage:
  path: /app/tango
  max_mb: 3639
  compress: false
server:
  host: 127.0.0.1
  port: 2000
  workers: 5
  limits:
    max_items: 411
    burst: 13
logging:
  level: warning
  file: /app/logs/app.log
EOF
python3 /app/app.py
