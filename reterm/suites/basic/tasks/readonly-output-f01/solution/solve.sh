#!/bin/bash
set -e
chmod 644 /app/records/journal.log
chmod 755 /app/records
python3 /app/bin/record.py
