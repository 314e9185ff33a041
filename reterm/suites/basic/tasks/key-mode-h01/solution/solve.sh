#!/bin/bash
set -e
chmod 700 /app/.secrets
chmod 600 /app/.secrets/harbor.pem
python3 /app/bin/attest.py
