#!/bin/bash
set -e
grep -rlw -- 'DEPRECATED_INDIGO_URL' /app/src | LC_ALL=C sort > /app/matches.txt
