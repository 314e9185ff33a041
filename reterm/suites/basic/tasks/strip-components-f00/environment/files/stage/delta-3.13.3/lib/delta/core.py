# delta-3.13.3 lib/delta/core.py
value=507449
