#!/bin/bash
set -e
cat > /app/migrations/015_require_email.sql <<'EOF'
-- migration 015: require_email
.bail on
BEGIN;
-- every customers row must have a value in email; rows without one get 'none'
CREATE TABLE customers_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL, orders INTEGER NOT NULL, email TEXT NOT NULL);
INSERT INTO customers_new (id, name, orders, email) SELECT id, name, orders, COALESCE(email, 'none') FROM customers;
DROP TABLE customers;
ALTER TABLE customers_new RENAME TO customers;
UPDATE schema_version SET version = 15;
COMMIT;
EOF
sqlite3 /app/inventory.db < /app/migrations/015_require_email.sql
