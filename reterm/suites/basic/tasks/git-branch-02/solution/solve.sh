#!/bin/bash
set -e
cd /app/repo
git checkout -q -b fix/port-45 e3c4a5814b195ba8f90df8107b39f4addc05ea6e
sed -i 's/^port = .*/port = 75/' settings.conf
git commit -q -am 'Set port to 75'
