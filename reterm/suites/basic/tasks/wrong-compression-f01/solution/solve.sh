#!/bin/bash
set -e
mkdir -p /app/opt
tar --lzma -xf /app/downloads/alpha-4.18.5.tar.gz -C /app/opt 
