#!/bin/bash
set -e
grep -rlw -- 'OLD_HARBOR_KEY' /app/repo | LC_ALL=C sort > /app/matches.txt
