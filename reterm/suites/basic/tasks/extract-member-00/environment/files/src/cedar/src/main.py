other src/main.py
