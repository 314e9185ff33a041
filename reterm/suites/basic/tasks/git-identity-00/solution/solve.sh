#!/bin/bash
set -e
cd /app/repo
git config user.name 'Marta Lindqvist'
git config user.email 'marta.lindqvist@example.org'
git add -A
git commit -q -m 'Add delta and kepler.txt'
