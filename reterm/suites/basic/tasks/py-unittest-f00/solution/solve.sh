#!/bin/bash
set -e
cat > /app/utilbox8.py <<'EOF'
def is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def chunks(items, n):
    return [items[i:i + n] for i in range(0, len(items), n)]
EOF
cd /app && python3 -m unittest
