#!/bin/bash
set -e
cd /app/repo
git merge -q feature/cedar || true
cat > packages.txt <<'EOF'
gamma==2.12
juniper==7.19
lumen==8.1
pixel==2.10
raven==6.14
sierra==3.8
tango==6.9
vertex==2.13
EOF
git add packages.txt
git commit -q --no-edit
