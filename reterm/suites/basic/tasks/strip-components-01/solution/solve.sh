#!/bin/bash
set -e
mkdir -p /app/site
tar -xzf /app/dist/juniper-4.10.8.tar.gz -C /app/site --strip-components=2
