#!/bin/bash
set -e
chmod 600 /app/etc/ssl/release.key
if ! kill -0 "$(cat /app/var/run/stampd.pid)" 2>/dev/null; then rm -f /app/var/run/stampd.pid; fi
/app/bin/stampd
