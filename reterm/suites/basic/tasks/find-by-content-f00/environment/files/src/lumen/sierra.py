# lumen/sierra.py
