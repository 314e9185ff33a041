# juniper-4.10.8 lib/juniper/core.py
value=863248
