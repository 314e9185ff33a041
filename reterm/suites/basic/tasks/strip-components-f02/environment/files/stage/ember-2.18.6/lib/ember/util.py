# ember-2.18.6 lib/ember/util.py
value=208674
