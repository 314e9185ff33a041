#!/bin/bash
set -e
cd /app/repo
git config user.name 'Marta Haddad'
git config user.email 'marta.haddad@corp.test'
git add -A
git commit -q -m 'Add delta and lumen.txt'
