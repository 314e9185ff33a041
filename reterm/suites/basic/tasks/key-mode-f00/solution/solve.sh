#!/bin/bash
set -e
chmod 700 /app/.secrets
chmod 600 /app/.secrets/umber.pem
python3 /app/bin/stamp.py
