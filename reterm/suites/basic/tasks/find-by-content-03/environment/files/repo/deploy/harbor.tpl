# deploy/harbor.tpl
  - ${LEGACY_EMBER_KEY}
