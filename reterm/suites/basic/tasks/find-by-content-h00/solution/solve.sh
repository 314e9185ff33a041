#!/bin/bash
set -e
grep -rlw -- 'LEGACY_INDIGO_HOST' /app/project | LC_ALL=C sort > /app/matches.txt
