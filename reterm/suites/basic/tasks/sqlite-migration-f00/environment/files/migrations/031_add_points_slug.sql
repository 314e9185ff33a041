-- migration 031: add_points_slug
.bail on
BEGIN;
ALTER TABLE devices ADD COLUMN points INTEGER;
ALTER TABLE devices ADD COLUMN slug TEXT;
UPDATE devices SET points = uptime_days * 4, slug = upper(hostname);
UPDATE schema_version SET version = 31;
COMMIT;
