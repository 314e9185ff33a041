# harbor-4.12.0 lib/harbor/lumen.py
value=753712
