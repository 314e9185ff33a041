# deploy/harbor.tpl
value = legacy_indigo_url
