#!/bin/bash
set -e
cd /app/uploads && find . -type f -name '*.swp' -printf '%P\n' | grep -vxF -f KEEP | while IFS= read -r f; do rm -f -- "$f"; done
