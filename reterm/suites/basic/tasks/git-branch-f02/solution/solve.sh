#!/bin/bash
set -e
cd /app/repo
git checkout -q -b patch/poll-ms-24 24ef979b0c609f6f1898ba8d7845c0c753288151
sed -i 's/^poll_ms = .*/poll_ms = 97/' app.conf
git commit -q -am 'Set poll_ms to 97'
