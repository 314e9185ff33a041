# cedar-4.19.5 lib/cedar/util.py
value=248259
