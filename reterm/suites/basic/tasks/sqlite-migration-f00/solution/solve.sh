#!/bin/bash
set -e
cat > /app/migrations/031_add_points_slug.sql <<'EOF'
-- migration 031: add_points_slug
.bail on
BEGIN;
ALTER TABLE devices ADD COLUMN slug TEXT;
UPDATE devices SET points = uptime_days * 4, slug = upper(hostname);
UPDATE schema_version SET version = 31;
COMMIT;
EOF
sqlite3 /app/crm.db < /app/migrations/031_add_points_slug.sql
