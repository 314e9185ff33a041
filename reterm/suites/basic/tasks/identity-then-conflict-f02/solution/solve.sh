#!/bin/bash
set -e
cd /app/tango-site
git config user.name "Lea Roux"
git config user.email "lea@harbor.example"
git merge feature -m "merge feature" || true
cat > CHANGES <<'EOF'
lumen-98
maple-10
raven-65
umber-10
kepler-2
gamma-59
EOF
git add CHANGES
git commit -q --no-edit
