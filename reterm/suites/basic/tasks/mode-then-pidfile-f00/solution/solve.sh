#!/bin/bash
set -e
chmod 600 /app/keys/notary.key
if ! kill -0 "$(cat /app/tmp/notaryd.pid)" 2>/dev/null; then rm -f /app/tmp/notaryd.pid; fi
/app/bin/notaryd
