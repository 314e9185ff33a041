#!/bin/bash
set -e
cd /app/quartz-site
git config user.name "Mia Kato"
git config user.email "mia@alpha.example"
git merge feature -m "merge feature" || true
cat > CHANGES <<'EOF'
fjord-97
kepler-73
ember-2
bravo-74
pixel-42
nova-26
indigo-78
quartz-70
EOF
git add CHANGES
git commit -q --no-edit
