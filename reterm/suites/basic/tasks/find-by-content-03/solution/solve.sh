#!/bin/bash
set -e
grep -rlw -- 'LEGACY_EMBER_KEY' /app/repo | LC_ALL=C sort > /app/matches.txt
