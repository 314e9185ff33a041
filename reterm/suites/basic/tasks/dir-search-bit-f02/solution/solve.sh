#!/bin/bash
set -e
chmod 755 /app/spool /app/spool/west /app/spool/east /app/spool/coast
python3 /app/bin/collect.py
