# deploy/lumen.tpl
value = legacy_ember_key
value = MY_LEGACY_EMBER_KEY
