-- migration 017: add_score_code
.bail on
BEGIN;
ALTER TABLE products ADD COLUMN score INTEGER;
ALTER TABLE products ADD COLUMN code TEXT;
UPDATE products SET score = stock * 5, code = upper(name);
UPDATE schema_version SET version = 17;
COMMIT;
