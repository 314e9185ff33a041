# maple-4.16.3 lib/maple/core.py
value=780067
