#!/bin/bash
set -e
chmod 644 /app/var/log/ledger.log
chmod 755 /app/var/log
python3 /app/bin/record.py
