#!/bin/bash
set -e
chmod 755 /app/shared /app/shared/south /app/shared/valley /app/shared/north
python3 /app/bin/collect.py
