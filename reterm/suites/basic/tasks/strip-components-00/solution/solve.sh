#!/bin/bash
set -e
mkdir -p /app/srv/sierra
tar -xzf /app/dist/sierra-3.2.9.tar.gz -C /app/srv/sierra --strip-components=1 --wildcards '*.py'
