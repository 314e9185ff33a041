-- migration 022: classify_tickets
.bail on
BEGIN;
ALTER TABLE tickets ADD COLUMN tier TEXT NOT NULL;
UPDATE tickets SET tier = CASE WHEN priority >= 55 THEN 'high' ELSE 'low' END;
CREATE INDEX idx_tickets_tier ON tickets (tier);
UPDATE schema_version SET version = 22;
COMMIT;
