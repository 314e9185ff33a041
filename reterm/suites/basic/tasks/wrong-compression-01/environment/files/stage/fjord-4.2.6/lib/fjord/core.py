# fjord-4.2.6 lib/fjord/core.py
value=934740
