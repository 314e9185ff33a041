# ember-2.18.6 lib/ember/core.py
value=217504
