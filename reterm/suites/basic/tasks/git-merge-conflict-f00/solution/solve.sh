#!/bin/bash
set -e
cd /app/repo
git merge -q feat/juniper || true
cat > allowlist.txt <<'EOF'
cedar==5.6
delta==5.20
ember==5.1
harbor==5.19
indigo==3.9
maple==1.19
nova==4.15
orbit==5.20
quartz==9.13
EOF
git add allowlist.txt
git commit -q --no-edit
