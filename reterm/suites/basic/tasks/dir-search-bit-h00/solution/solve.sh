#!/bin/bash
set -e
chmod 755 /app/incoming /app/incoming/west /app/incoming/valley /app/incoming/central
python3 /app/bin/tally.py
