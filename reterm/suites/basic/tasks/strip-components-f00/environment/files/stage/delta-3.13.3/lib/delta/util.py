# delta-3.13.3 lib/delta/util.py
value=767806
