#!/bin/bash
set -e
cd /app/repo
bad=$(git log --format=%H -S 'queue_len = 1500' -- config.ini | tail -n 1)
git revert --no-edit "$bad"
