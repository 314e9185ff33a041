#!/bin/bash
set -e
cd /app
PYTHONPATH=/app/lib python3 /app/main.py
