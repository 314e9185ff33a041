#!/bin/bash
set -e
cd /app/umber-docs
git config user.name "Mia Kato"
git config user.email "mia@raven.example"
git merge feature -m "merge feature" || true
cat > CHANGES <<'EOF'
alpha-17
pixel-37
gamma-31
vertex-94
quartz-81
nova-29
ember-89
sierra-27
EOF
git add CHANGES
git commit -q --no-edit
