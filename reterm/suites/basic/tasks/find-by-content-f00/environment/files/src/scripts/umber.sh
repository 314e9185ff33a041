# scripts/umber.sh
value = MY_LEGACY_TANGO_URL
