#!/bin/bash
set -e
if ! kill -0 31252 2>/dev/null; then rm -f /app/var/run/harbor-indexer.pid; fi
/app/bin/harbor-indexer
