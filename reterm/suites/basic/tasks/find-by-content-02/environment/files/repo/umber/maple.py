# umber/maple.py
