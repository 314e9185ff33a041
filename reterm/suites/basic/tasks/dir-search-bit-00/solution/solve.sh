#!/bin/bash
set -e
chmod 755 /app/inbox /app/inbox/south /app/inbox/west /app/inbox/central /app/inbox/north
python3 /app/bin/tally.py
