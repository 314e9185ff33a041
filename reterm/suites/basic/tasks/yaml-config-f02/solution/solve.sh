#!/bin/bash
set -e
cat > /app/config.yaml <<'EOF'
# settings for the cedar service
name: cedar
storage:
  path: /app/juniper
  max_mb: 1439
  compress: false
  limits:
    max_items: 156
    burst: 3
server:
  host: 0.0.0.0
  port: 4212
  workers: 6
cache:
  backend: memory
  ttl: 2133
  enabled: true
EOF
python3 /app/app.py
