#!/bin/bash
set -e
cat > /app/stats.py <<'EOF'
def median(values):
    s = sorted(values)
    mid = len(s) // 2
    if len(s) % 2:
        return s[mid]
    return (s[mid - 1] + s[mid]) / 2
EOF
