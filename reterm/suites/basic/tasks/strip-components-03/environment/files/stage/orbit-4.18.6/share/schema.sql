# orbit-4.18.6 share/schema.sql
value=563507
