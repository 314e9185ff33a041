#!/bin/bash
set -e
mkdir -p /app/vendor
tar --lzma -xf /app/downloads/alpha-4.6.7.tar.gz -C /app/vendor 
