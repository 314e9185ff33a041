# deploy/sierra.tpl
other = OLD_HARBOR_KEY_V2
# TODO: drop OLD_HARBOR_KEY after the move
