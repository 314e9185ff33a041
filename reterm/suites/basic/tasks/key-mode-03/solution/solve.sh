#!/bin/bash
set -e
chmod 700 /app/credentials
chmod 600 /app/credentials/delta_ed25519
python3 /app/bin/sign.py
