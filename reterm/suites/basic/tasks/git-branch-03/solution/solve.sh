#!/bin/bash
set -e
cd /app/repo
git checkout -q -b hotfix/workers-64 d3d801d197c417ca13c5b6f62009f0fc3f7e7bfb
sed -i 's/^workers = .*/workers = 64/' settings.conf
git commit -q -am 'Set workers to 64'
