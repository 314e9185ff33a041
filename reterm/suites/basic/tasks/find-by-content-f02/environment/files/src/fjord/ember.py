# fjord/ember.py
value = OLD_DELTA_HOST_V2
