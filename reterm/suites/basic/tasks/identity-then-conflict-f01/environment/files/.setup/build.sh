#!/bin/bash
set -e
export GIT_AUTHOR_DATE=2024-03-01T12:00:00 GIT_COMMITTER_DATE=2024-03-01T12:00:00
g() { git -c user.name=Builder -c user.email=builder@example.invalid "$@"; }
git init -q --template= -b main /app/bravo-site
cd /app/bravo-site
cp -r /app/.setup/base/. . && g add -A && g commit -qm "initial import"
g checkout -qb feature && cp -r /app/.setup/feature/. . && g add -A && g commit -qm "feature: pixel support"
g checkout -q main && cp -r /app/.setup/main/. . && g add -A && g commit -qm "main: vertex fixes"
rm -rf /app/.setup
