#!/bin/bash
set -e
if ! kill -0 26318 2>/dev/null; then rm -f /app/var/run/orbitd.pid; fi
/app/bin/orbitd
