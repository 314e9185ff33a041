#!/bin/bash
set -e
mkdir -p /app/delta
tar -xzf /app/dist/delta-3.13.3.tar.gz -C /app/delta --strip-components=1 --wildcards '*.conf'
