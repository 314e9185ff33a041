#!/bin/bash
set -e
cd /app/repo
git merge -q topic/harbor || true
cat > CHANGELOG.md <<'EOF'
# Changes

## Unreleased
- Fix alpha parsing
- Add maple export
- Bravo support
- Nova support
- Kepler support
EOF
git add CHANGELOG.md
git commit -q --no-edit
