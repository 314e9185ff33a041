#!/bin/bash
set -e
chmod 700 /app/credentials
chmod 600 /app/credentials/bravo.pem
python3 /app/bin/seal.py
