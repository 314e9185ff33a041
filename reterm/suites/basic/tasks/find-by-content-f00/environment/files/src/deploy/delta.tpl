# deploy/delta.tpl
value = LEGACY-TANGO-URL
value = legacy_tango_url
