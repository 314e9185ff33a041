# juniper-1.7.6 lib/juniper/core.py
value=346556
