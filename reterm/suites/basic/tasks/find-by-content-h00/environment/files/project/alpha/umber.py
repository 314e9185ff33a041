# alpha/umber.py
