#!/bin/bash
set -e
iconv -f latin1 -t utf-8 /app/data/customers.csv > /tmp/customers.csv
mv /tmp/customers.csv /app/data/customers.csv
python3 /app/customers_report.py
