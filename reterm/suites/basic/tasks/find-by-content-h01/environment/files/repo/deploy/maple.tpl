# deploy/maple.tpl
url = os.environ["OLD_LUMEN_KEY"]
other = OLD_LUMEN_KEY_V2
