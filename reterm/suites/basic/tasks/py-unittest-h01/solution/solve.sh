#!/bin/bash
set -e
cat > /app/textkit4.py <<'EOF'
def percent(part, whole):
    return round(100 * part / whole, 1)


def chunks(items, n):
    return [items[i:i + n] for i in range(0, len(items), n)]


def word_count(text):
    return len(text.split())
EOF
cd /app && python3 -m unittest
