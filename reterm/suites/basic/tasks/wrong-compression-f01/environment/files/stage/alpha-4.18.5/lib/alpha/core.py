# alpha-4.18.5 lib/alpha/core.py
value=114113
