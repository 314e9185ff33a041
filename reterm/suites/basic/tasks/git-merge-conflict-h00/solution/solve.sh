#!/bin/bash
set -e
cd /app/repo
git merge -q feat/indigo || true
cat > app.conf <<'EOF'
cache_mb = 70
backoff_s = 21
queue_len = 32
retries = 54
poll_ms = 22
port = 87
timeout = 56
workers = 91
EOF
git add app.conf
git commit -q --no-edit
