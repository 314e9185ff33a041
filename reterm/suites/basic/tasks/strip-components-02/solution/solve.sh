#!/bin/bash
set -e
mkdir -p /app/opt/ember
tar -xzf /app/dist/ember-4.11.7.tar.gz -C /app/opt/ember --strip-components=2 --wildcards '*.conf'
