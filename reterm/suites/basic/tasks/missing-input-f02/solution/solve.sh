#!/bin/bash
set -e
mkdir -p /app/etc
printf '[index]\nsource = /app/docs\nmin_length = 6\n' > /app/etc/indexer.ini
python3 /app/indexer.py
