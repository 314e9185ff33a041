#!/bin/bash
set -e
grep -rlw -- 'LEGACY_INDIGO_URL' /app/src | LC_ALL=C sort > /app/matches.txt
