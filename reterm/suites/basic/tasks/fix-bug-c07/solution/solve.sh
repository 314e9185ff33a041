#!/bin/bash
set -e
cat > /app/stats.py <<'EOF'
def inclusive_range(lo, hi):
    return list(range(lo, hi + 1))
EOF
