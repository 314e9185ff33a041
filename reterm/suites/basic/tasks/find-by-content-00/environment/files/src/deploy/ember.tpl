# deploy/ember.tpl
value = DEPRECATED-INDIGO-URL
