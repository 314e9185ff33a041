#!/bin/bash
set -e
cd /app/repo
git merge -q feature/orbit || true
cat > NEWS.md <<'EOF'
# Changes

## Unreleased
- Fix cedar parsing
- Add raven export
- Vertex support
- Fjord support
- Nova support
EOF
git add NEWS.md
git commit -q --no-edit
