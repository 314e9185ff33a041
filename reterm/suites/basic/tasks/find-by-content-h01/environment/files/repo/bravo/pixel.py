# bravo/pixel.py
value = OLD_LUMEN_KEYS
value = OLD-LUMEN-KEY
