#!/bin/bash
set -e
mkdir -p /app/collected
find /app/exports -type f -name '*.yaml' -exec cp -t /app/collected {} +
