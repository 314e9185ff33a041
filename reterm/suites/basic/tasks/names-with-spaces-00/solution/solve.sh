#!/bin/bash
set -e
mkdir -p /app/collected
find /app/inbox -type f -name '*.md' -exec cp -t /app/collected {} +
