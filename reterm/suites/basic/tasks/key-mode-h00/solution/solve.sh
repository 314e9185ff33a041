#!/bin/bash
set -e
chmod 700 /app/credentials
chmod 600 /app/credentials/pixel.pem
python3 /app/bin/stamp.py
