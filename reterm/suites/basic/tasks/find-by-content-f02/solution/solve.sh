#!/bin/bash
set -e
grep -rlw -- 'OLD_DELTA_HOST' /app/src | LC_ALL=C sort > /app/matches.txt
