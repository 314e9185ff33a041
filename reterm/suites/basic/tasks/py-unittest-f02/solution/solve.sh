#!/bin/bash
set -e
cat > /app/numtools3.py <<'EOF'
def slugify(text):
    return "-".join(text.lower().split())


def word_count(text):
    return len(text.split())


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x
EOF
cd /app && python3 -m unittest
