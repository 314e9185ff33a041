#!/bin/bash
set -e
chmod 644 /app/journal/entries.log
chmod 755 /app/journal
python3 /app/bin/record.py
