#!/bin/bash
set -e
cd /app/repo
git config user.name 'Lena Lindqvist'
git config user.email 'lena.lindqvist@example.org'
git add -A
git commit -q -m 'Add lumen and delta.txt'
