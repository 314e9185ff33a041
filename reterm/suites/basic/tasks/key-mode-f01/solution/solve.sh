#!/bin/bash
set -e
chmod 700 /app/.secrets
chmod 600 /app/.secrets/harbor_ed25519
python3 /app/bin/stamp.py
