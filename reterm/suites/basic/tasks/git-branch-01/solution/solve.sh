#!/bin/bash
set -e
cd /app/repo
git checkout -q -b patch/cache-mb-31 73e16fcf4d2b1301a3a5d6749972325e1ea513f7
sed -i 's/^cache_mb = .*/cache_mb = 118/' app.conf
git commit -q -am 'Set cache_mb to 118'
