#!/bin/bash
set -e
cd /app/repo
bad=$(git log --format=%H -S 'batch_size = 45000' -- limits.ini | tail -n 1)
git revert --no-edit "$bad"
