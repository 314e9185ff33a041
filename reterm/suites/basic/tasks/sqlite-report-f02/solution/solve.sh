#!/bin/bash
set -e
sqlite3 -separator , /app/ops_prod.db "SELECT l.name, SUM(kg) FROM shipments t JOIN warehouses l ON l.id = t.warehouse_id GROUP BY l.name ORDER BY l.name;" > /app/report.csv
