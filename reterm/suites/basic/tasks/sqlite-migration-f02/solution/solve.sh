#!/bin/bash
set -e
cat > /app/migrations/002_classify_products.sql <<'EOF'
-- migration 002: classify_products
.bail on
BEGIN;
ALTER TABLE products ADD COLUMN band TEXT NOT NULL DEFAULT 'cold';
UPDATE products SET band = CASE WHEN stock >= 80 THEN 'hot' ELSE 'cold' END;
CREATE INDEX idx_products_band ON products (band);
UPDATE schema_version SET version = 2;
COMMIT;
EOF
sqlite3 /app/crm.db < /app/migrations/002_classify_products.sql
