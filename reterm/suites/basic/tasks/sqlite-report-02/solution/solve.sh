#!/bin/bash
set -e
sqlite3 -separator , /app/ops_2024.db "SELECT site, COUNT(*) FROM visits_v2 GROUP BY site ORDER BY site;" > /app/report.csv
