#!/bin/bash
set -e
cd /app/repo
git config user.name 'Ines Moreno'
git config user.email 'ines.moreno@example.org'
git add -A
git commit -q -m 'Add sierra and orbit.txt'
