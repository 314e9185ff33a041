# fjord/settings.py
  - ${OLD_DELTA_HOST}
other = OLD_DELTA_HOSTS
