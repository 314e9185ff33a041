# deploy/raven.tpl
value = deprecated_delta_host
