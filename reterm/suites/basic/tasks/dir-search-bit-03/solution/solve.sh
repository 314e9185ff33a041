#!/bin/bash
set -e
chmod 755 /app/incoming /app/incoming/north /app/incoming/east /app/incoming/south /app/incoming/coast
python3 /app/bin/tally.py
