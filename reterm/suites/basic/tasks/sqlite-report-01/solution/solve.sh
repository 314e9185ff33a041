#!/bin/bash
set -e
sqlite3 -separator , /app/ops_prod.db "SELECT site, COUNT(*) FROM access_log GROUP BY site ORDER BY COUNT(*) DESC, site;" > /app/report.csv
