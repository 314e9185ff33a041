# juniper-4.10.8 lib/juniper/util.py
value=670526
