#!/bin/bash
set -e
chmod 600 /app/keys/notary.key
if ! kill -0 "$(cat /app/run/notaryd.pid)" 2>/dev/null; then rm -f /app/run/notaryd.pid; fi
/app/bin/notaryd
