#!/bin/bash
set -e
cd /app/repo
git checkout -q -b fix/backoff-s-58 0ec5f7b2bf44dc844aa710874e8fe480699af044
sed -i 's/^backoff_s = .*/backoff_s = 83/' settings.conf
git commit -q -am 'Set backoff_s to 83'
