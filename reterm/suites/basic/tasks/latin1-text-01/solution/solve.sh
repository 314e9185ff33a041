#!/bin/bash
set -e
iconv -f utf-16 -t utf-8 /app/data/suppliers.csv > /tmp/suppliers.csv
mv /tmp/suppliers.csv /app/data/suppliers.csv
python3 /app/suppliers_report.py
