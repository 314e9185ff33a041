other = MY_LEGACY_TANGO_URL
LEGACY_TANGO_URL=254
# deploy/fjord.tpl
