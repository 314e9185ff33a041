#!/bin/bash
set -e
cd /app/repo
git config user.name 'Tomas Moreno'
git config user.email 'tomas.moreno@corp.test'
git add -A
git commit -q -m 'Add maple and alpha.txt'
