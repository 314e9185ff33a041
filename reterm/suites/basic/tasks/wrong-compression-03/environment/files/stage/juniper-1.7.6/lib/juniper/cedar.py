# juniper-1.7.6 lib/juniper/cedar.py
value=265204
