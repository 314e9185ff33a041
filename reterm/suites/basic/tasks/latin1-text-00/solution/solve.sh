#!/bin/bash
set -e
iconv -f cp1252 -t utf-8 /app/data/members.csv > /tmp/members.csv
mv /tmp/members.csv /app/data/members.csv
python3 /app/members_report.py
