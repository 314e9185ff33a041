#!/bin/bash
set -e
cd /app/repo
bad=$(git log --format=%H -S 'retries = 3800' -- server.conf | tail -n 1)
git revert --no-edit "$bad"
