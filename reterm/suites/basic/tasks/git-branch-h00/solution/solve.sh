#!/bin/bash
set -e
cd /app/repo
git checkout -q -b fix/cache-mb-35 22f0d53d6417881402fe63bbe69f6357aaf7aadf
sed -i 's/^cache_mb = .*/cache_mb = 51/' settings.conf
git commit -q -am 'Set cache_mb to 51'
