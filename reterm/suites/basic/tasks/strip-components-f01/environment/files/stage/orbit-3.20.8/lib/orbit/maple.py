# orbit-3.20.8 lib/orbit/maple.py
value=295672
