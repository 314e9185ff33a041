# deploy/juniper.tpl
