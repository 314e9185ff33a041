#!/bin/bash
set -e
cd /app/repo
bad=$(git log --format=%H -S 'queue_len = 5300' -- server.conf | tail -n 1)
git revert --no-edit "$bad"
