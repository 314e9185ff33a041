#!/bin/bash
set -e
cat > /app/migrations/012_add_weight_tag.sql <<'EOF'
-- migration 012: add_weight_tag
.bail on
BEGIN;
ALTER TABLE products ADD COLUMN tag TEXT;
UPDATE products SET weight = stock * 3, tag = upper(name);
UPDATE schema_version SET version = 12;
COMMIT;
EOF
sqlite3 /app/app.db < /app/migrations/012_add_weight_tag.sql
