# harbor-4.12.0 lib/harbor/core.py
value=291250
