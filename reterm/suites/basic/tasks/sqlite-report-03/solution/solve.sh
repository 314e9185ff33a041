#!/bin/bash
set -e
sqlite3 -separator , /app/ops_prod.db "SELECT region, SUM(amount) FROM shop_orders GROUP BY region HAVING COUNT(*) >= 4 ORDER BY SUM(amount) DESC, region;" > /app/report.csv
