#!/bin/bash
set -e
if ! kill -0 28757 2>/dev/null; then rm -f /app/tmp/harbor-indexer.lock; fi
/app/bin/harbor-indexer
