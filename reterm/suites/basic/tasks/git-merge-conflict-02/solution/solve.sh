#!/bin/bash
set -e
cd /app/repo
git merge -q feat/cedar || true
cat > app.conf <<'EOF'
port = 82
batch_size = 43
backoff_s = 31
timeout = 65
workers = 4
queue_len = 90
cache_mb = 90
max_conn = 20
EOF
git add app.conf
git commit -q --no-edit
