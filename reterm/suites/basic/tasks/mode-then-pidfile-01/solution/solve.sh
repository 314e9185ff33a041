#!/bin/bash
set -e
chmod 600 /app/secrets/sign.key
if ! kill -0 "$(cat /app/tmp/signd.pid)" 2>/dev/null; then rm -f /app/tmp/signd.pid; fi
/app/bin/signd
