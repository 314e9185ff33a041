# juniper-1.7.6 lib/juniper/util.py
value=971552
