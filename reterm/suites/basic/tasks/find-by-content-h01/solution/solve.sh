#!/bin/bash
set -e
grep -rlw -- 'OLD_LUMEN_KEY' /app/repo | LC_ALL=C sort > /app/matches.txt
