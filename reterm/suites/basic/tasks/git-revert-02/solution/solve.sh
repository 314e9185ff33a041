#!/bin/bash
set -e
cd /app/repo
bad=$(git log --format=%H -S 'cache_mb = 45000' -- config.ini | tail -n 1)
git revert --no-edit "$bad"
