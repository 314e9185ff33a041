#!/bin/bash
set -e
mkdir -p /app/install
tar -xzf /app/dist/ember-2.18.6.tar.gz -C /app/install --strip-components=1
