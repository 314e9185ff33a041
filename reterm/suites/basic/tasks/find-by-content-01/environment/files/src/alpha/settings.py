# alpha/settings.py
  - ${LEGACY_INDIGO_URL}
