# deploy/pixel.tpl
value = OLD_DELTA_HOST_V2
