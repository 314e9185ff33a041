# ember-4.11.7 share/schema.sql
value=16436
