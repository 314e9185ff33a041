# deploy/raven.tpl
