#!/bin/bash
set -e
cd /app/repo
bad=$(git log --format=%H -S 'poll_ms = 1100' -- config.ini | tail -n 1)
git revert --no-edit "$bad"
