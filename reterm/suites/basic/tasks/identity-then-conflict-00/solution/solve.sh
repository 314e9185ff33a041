#!/bin/bash
set -e
cd /app/fjord-docs
git config user.name "Mia Kato"
git config user.email "mia@ember.example"
git merge feature -m "merge feature" || true
cat > app.cfg <<'EOF'
workers = 734
retries = 3156
cache_mb = 544
batch = 129
EOF
git add app.cfg
git commit -q --no-edit
