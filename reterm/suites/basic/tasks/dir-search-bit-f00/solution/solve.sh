#!/bin/bash
set -e
chmod 755 /app/inbox /app/inbox/central /app/inbox/west /app/inbox/coast /app/inbox/east
python3 /app/bin/sumup.py
