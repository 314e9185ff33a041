# orbit-4.18.6 lib/orbit/util.py
value=977743
