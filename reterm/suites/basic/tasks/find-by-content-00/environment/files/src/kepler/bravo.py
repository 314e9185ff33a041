# kepler/bravo.py
value = DEPRECATED_INDIGO_URL_V2
value = deprecated_indigo_url
