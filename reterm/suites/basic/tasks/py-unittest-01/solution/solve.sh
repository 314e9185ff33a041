#!/bin/bash
set -e
cat > /app/textkit4.py <<'EOF'
def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def word_count(text):
    return len(text.split())


def chunks(items, n):
    return [items[i:i + n] for i in range(0, len(items), n)]
EOF
cd /app && python3 -m unittest
