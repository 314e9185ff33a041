# alpha-4.6.7 share/schema.sql
value=914418
