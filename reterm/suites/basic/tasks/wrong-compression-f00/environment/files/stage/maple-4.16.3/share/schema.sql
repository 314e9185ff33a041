# maple-4.16.3 share/schema.sql
value=852361
