# alpha/cedar.py
value = legacy_indigo_url
