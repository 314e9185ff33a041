#!/bin/bash
set -e
grep -rlw -- 'LEGACY_TANGO_URL' /app/src | LC_ALL=C sort > /app/matches.txt
