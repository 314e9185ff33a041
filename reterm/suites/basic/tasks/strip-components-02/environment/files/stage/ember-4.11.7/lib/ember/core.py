# ember-4.11.7 lib/ember/core.py
value=326211
