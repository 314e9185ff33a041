# sierra-3.2.9 lib/sierra/tango.py
value=26800
