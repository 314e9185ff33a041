#!/bin/bash
set -e
chmod 755 /app/ledger
python3 /app/bin/record.py
