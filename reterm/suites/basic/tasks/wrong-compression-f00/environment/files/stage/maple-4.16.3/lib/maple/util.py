# maple-4.16.3 lib/maple/util.py
value=840200
