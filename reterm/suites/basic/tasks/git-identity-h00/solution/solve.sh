#!/bin/bash
set -e
cd /app/repo
git config user.name 'Noor Sato'
git config user.email 'noor.sato@example.org'
git add -A
git commit -q -m 'Add harbor and raven.txt'
