#!/bin/bash
set -e
mkdir -p /app/collected
find /app/exports -type f -name '*.md' -exec cp -t /app/collected {} +
