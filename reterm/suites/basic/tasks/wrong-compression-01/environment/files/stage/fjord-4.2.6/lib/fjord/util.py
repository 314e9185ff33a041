# fjord-4.2.6 lib/fjord/util.py
value=476014
