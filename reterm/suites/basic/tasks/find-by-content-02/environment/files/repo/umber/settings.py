other = MY_OLD_HARBOR_KEY
# umber/settings.py
# TODO: drop OLD_HARBOR_KEY after the move
