#!/bin/bash
set -e
if ! kill -0 29412 2>/dev/null; then rm -f /app/run/fjord-worker.lock; fi
/app/bin/fjord-worker
