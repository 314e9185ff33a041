export DEPRECATED_INDIGO_URL=https://maple.example
# kepler/settings.py
