#!/bin/bash
set -e
cd /app/repo
git merge -q feature/fjord || true
cat > limits.conf <<'EOF'
queue_len = 98
backoff_s = 35
cache_mb = 44
port = 90
timeout = 71
max_conn = 78
retries = 81
batch_size = 60
EOF
git add limits.conf
git commit -q --no-edit
