#!/bin/bash
set -e
chmod 755 /app/shared /app/shared/south /app/shared/valley /app/shared/west /app/shared/central
python3 /app/bin/sumup.py
