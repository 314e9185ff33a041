#!/bin/bash
set -e
chmod 755 /app/var/log
python3 /app/bin/record.py
