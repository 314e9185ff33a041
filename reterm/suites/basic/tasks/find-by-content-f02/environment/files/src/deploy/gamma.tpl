  - ${OLD_DELTA_HOST}
# deploy/gamma.tpl
