# orbit-4.18.6 lib/orbit/core.py
value=224768
