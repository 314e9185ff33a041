#!/bin/bash
set -e
chmod 700 /app/keys
chmod 600 /app/keys/orbit.key
python3 /app/bin/seal.py
