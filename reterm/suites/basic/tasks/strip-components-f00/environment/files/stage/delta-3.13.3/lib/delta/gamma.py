# delta-3.13.3 lib/delta/gamma.py
value=404421
