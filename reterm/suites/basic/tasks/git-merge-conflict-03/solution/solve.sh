#!/bin/bash
set -e
cd /app/repo
git merge -q topic/lumen || true
cat > settings.ini <<'EOF'
batch_size = 21
port = 44
backoff_s = 76
poll_ms = 90
retries = 65
cache_mb = 63
timeout = 82
max_conn = 71
EOF
git add settings.ini
git commit -q --no-edit
