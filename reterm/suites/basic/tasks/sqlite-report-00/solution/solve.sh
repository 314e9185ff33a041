#!/bin/bash
set -e
sqlite3 -separator , /app/stats.db "SELECT region, COUNT(*) FROM tx_orders GROUP BY region ORDER BY region;" > /app/report.csv
