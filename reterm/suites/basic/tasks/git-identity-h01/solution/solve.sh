#!/bin/bash
set -e
cd /app/repo
git config user.name 'Ines Novak'
git config user.email 'ines.novak@corp.test'
git add -A
git commit -q -m 'Add orbit and juniper.txt'
