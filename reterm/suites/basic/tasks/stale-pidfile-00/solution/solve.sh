#!/bin/bash
set -e
if ! kill -0 24381 2>/dev/null; then rm -f /app/tmp/lumen-sync.lock; fi
/app/bin/lumen-sync
