# cedar-4.19.5 lib/cedar/core.py
value=277852
