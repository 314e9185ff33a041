# deploy/pixel.tpl
value = LEGACY-INDIGO-HOST
