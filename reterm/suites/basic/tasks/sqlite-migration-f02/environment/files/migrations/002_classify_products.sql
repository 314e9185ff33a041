-- migration 002: classify_products
.bail on
BEGIN;
ALTER TABLE products ADD COLUMN band TEXT NOT NULL;
UPDATE products SET band = CASE WHEN stock >= 80 THEN 'hot' ELSE 'cold' END;
CREATE INDEX idx_products_band ON products (band);
UPDATE schema_version SET version = 2;
COMMIT;
