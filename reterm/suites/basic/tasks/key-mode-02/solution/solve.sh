#!/bin/bash
set -e
chmod 700 /app/config/keys
chmod 600 /app/config/keys/lumen_ed25519
python3 /app/bin/attest.py
