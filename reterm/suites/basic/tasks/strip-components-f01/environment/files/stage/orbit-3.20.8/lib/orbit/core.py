# orbit-3.20.8 lib/orbit/core.py
value=245969
