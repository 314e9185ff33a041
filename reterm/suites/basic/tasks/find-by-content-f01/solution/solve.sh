#!/bin/bash
set -e
grep -rlw -- 'DEPRECATED_DELTA_HOST' /app/src | LC_ALL=C sort > /app/matches.txt
