#!/bin/bash
set -e
cd /app/repo
git config user.name 'Ines Costa'
git config user.email 'ines.costa@example.org'
git add -A
git commit -q -m 'Add ember and fjord.txt'
