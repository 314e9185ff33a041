#!/bin/bash
set -e
mkdir -p /app/orbit
tar -xzf /app/dist/orbit-3.20.8.tar.gz -C /app/orbit --strip-components=1 --wildcards '*.txt'
