# ember-2.18.6 lib/ember/alpha.py
value=132346
