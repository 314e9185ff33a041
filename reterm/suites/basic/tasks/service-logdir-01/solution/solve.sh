#!/bin/bash
set -e
sed -i 's|^input = .*|input = /app/data/2024/readings.csv|' /app/etc/delta.ini
/app/bin/delta-svc
