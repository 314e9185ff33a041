# harbor-4.12.0 lib/harbor/util.py
value=268369
