# harbor-4.12.0 share/schema.sql
value=129417
