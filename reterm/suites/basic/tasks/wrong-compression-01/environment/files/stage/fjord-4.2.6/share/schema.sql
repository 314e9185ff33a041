# fjord-4.2.6 share/schema.sql
value=836841
