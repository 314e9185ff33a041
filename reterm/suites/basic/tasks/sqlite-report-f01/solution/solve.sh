#!/bin/bash
set -e
sqlite3 -separator , /app/metrics_prod.db "SELECT l.name, SUM(views_total) FROM page_views t JOIN sites l ON l.id = t.site_id GROUP BY l.name ORDER BY l.name;" > /app/report.csv
