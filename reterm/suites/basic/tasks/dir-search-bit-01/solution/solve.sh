#!/bin/bash
set -e
chmod 755 /app/shared /app/shared/east /app/shared/central /app/shared/harbor
python3 /app/bin/collect.py
