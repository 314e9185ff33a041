#!/bin/bash
set -e
if ! kill -0 21777 2>/dev/null; then rm -f /app/run/ember-worker.lock; fi
/app/bin/ember-worker
