#!/bin/bash
set -e
cat > /app/migrations/017_add_score_code.sql <<'EOF'
-- migration 017: add_score_code
.bail on
BEGIN;
ALTER TABLE products ADD COLUMN code TEXT;
UPDATE products SET score = stock * 5, code = upper(name);
UPDATE schema_version SET version = 17;
COMMIT;
EOF
sqlite3 /app/crm.db < /app/migrations/017_add_score_code.sql
