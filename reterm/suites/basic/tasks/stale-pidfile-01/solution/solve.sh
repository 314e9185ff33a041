#!/bin/bash
set -e
if ! kill -0 30402 2>/dev/null; then rm -f /app/run/lumend.pid; fi
/app/bin/lumend
