#!/bin/bash
set -e
cat > /app/utilbox9.py <<'EOF'
def percent(part, whole):
    return round(100 * part / whole, 1)


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
EOF
cd /app && python3 -m unittest
