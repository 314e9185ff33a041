# alpha-4.6.7 lib/alpha/util.py
value=381957
