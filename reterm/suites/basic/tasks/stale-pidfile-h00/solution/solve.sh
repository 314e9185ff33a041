#!/bin/bash
set -e
if ! kill -0 26654 2>/dev/null; then rm -f /app/tmp/gamma-sync.lock; fi
/app/bin/gamma-sync
