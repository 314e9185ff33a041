# ember-4.11.7 lib/ember/util.py
value=63497
