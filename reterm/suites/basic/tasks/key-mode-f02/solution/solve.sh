#!/bin/bash
set -e
chmod 700 /app/config/keys
chmod 600 /app/config/keys/quartz.pem
python3 /app/bin/stamp.py
