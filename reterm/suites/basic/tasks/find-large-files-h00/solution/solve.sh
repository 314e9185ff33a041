#!/bin/bash
set -e
cd /app/cache && find . -type f -name '*.part' -printf '%P\n' | grep -vxF -f KEEP | while IFS= read -r f; do rm -f -- "$f"; done
