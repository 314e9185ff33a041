# deploy/sierra.tpl
export DEPRECATED_INDIGO_URL=https://maple.example
