#!/bin/bash
set -e
cd /app/repo
git checkout -q -b fix/queue-len-85 80fa134ebaf5c981e981ef1567d87866fb4af1eb
sed -i 's/^queue_len = .*/queue_len = 49/' service.ini
git commit -q -am 'Set queue_len to 49'
