# alpha-4.18.5 share/schema.sql
value=903924
