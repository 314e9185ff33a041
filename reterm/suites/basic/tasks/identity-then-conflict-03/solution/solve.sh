#!/bin/bash
set -e
cd /app/sierra-site
git config user.name "Tom Berg"
git config user.email "tom@quartz.example"
git merge feature -m "merge feature" || true
cat > hosts.txt <<'EOF'
maple-63
nova-20
pixel-86
quartz-62
umber-43
lumen-86
EOF
git add hosts.txt
git commit -q --no-edit
