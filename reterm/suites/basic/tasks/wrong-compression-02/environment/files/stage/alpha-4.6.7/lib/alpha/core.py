# alpha-4.6.7 lib/alpha/core.py
value=597208
