# kepler/maple.py
value = DEPRECATED_DELTA_HOSTS
