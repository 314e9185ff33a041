#!/bin/bash
set -e
sqlite3 -separator , /app/shop_2024.db "SELECT l.code, MAX(gross_kg) FROM shipments t JOIN warehouses l ON l.id = t.warehouse_id GROUP BY l.code ORDER BY MAX(gross_kg) DESC, l.code;" > /app/report.csv
