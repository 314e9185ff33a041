# bravo/maple.py
value = legacy_ember_key
value = LEGACY_EMBER_KEY_V2
