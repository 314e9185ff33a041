#!/bin/bash
set -e
iconv -f utf-16 -t utf-8 /app/data/guests.csv > /tmp/guests.csv
mv /tmp/guests.csv /app/data/guests.csv
python3 /app/guests_report.py
