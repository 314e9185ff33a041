# alpha-4.18.5 lib/alpha/util.py
value=833888
