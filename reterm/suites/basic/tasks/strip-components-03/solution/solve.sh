#!/bin/bash
set -e
mkdir -p /app/srv/orbit
tar -xzf /app/dist/orbit-4.18.6.tar.gz -C /app/srv/orbit --strip-components=1
