# sierra-3.2.9 lib/sierra/core.py
value=120117
