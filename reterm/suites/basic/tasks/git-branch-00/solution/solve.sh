#!/bin/bash
set -e
cd /app/repo
git checkout -q -b hotfix/queue-len-82 3d5466c53a13580c8185ee174aafadaf78c621a3
sed -i 's/^queue_len = .*/queue_len = 23/' service.ini
git commit -q -am 'Set queue_len to 23'
