#!/bin/bash
set -e
cd /app/bravo-site
git config user.name "Ada Lane"
git config user.email "ada@maple.example"
git merge feature -m "merge feature" || true
cat > CHANGES <<'EOF'
ember-75
bravo-87
nova-9
quartz-12
raven-59
indigo-92
maple-96
fjord-65
vertex-9
EOF
git add CHANGES
git commit -q --no-edit
