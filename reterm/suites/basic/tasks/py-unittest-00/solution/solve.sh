#!/bin/bash
set -e
cat > /app/toolkit2.py <<'EOF'
def word_count(text):
    return len(text.split())


def chunks(items, n):
    return [items[i:i + n] for i in range(0, len(items), n)]


def percent(part, whole):
    return round(100 * part / whole, 1)
EOF
cd /app && python3 -m unittest
