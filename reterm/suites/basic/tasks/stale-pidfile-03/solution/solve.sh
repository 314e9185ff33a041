#!/bin/bash
set -e
if ! kill -0 28278 2>/dev/null; then rm -f /app/run/juniper-worker.pid; fi
/app/bin/juniper-worker
