# sierra-3.2.9 lib/sierra/util.py
value=506878
