#!/bin/bash
set -e
cd /app/repo
git checkout -q -b fix/queue-len-35 b9f0956da9b83ef6799ae190889368f2f1f12d55
sed -i 's/^queue_len = .*/queue_len = 92/' app.conf
git commit -q -am 'Set queue_len to 92'
