# orbit-3.20.8 lib/orbit/util.py
value=347153
