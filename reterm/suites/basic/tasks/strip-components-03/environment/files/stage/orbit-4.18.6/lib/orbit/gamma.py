# orbit-4.18.6 lib/orbit/gamma.py
value=990087
