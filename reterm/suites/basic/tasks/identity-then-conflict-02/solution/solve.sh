#!/bin/bash
set -e
cd /app/kepler-docs
git config user.name "Lea Roux"
git config user.email "lea@umber.example"
git merge feature -m "merge feature" || true
cat > plugins.txt <<'EOF'
alpha-52
gamma-45
raven-62
indigo-1
cedar-19
bravo-11
quartz-4
orbit-37
EOF
git add plugins.txt
git commit -q --no-edit
