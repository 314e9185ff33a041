#!/bin/bash
# Copies every file of /app/incoming to /app/archive and lists each one with its size in bytes in /app/archive/MANIFEST.
mkdir -p /app/archive
: > /app/archive/MANIFEST
for name in $(ls /app/incoming); do
  f=/app/incoming/$name
  cp "$f" "/app/archive/$name"
  printf '%s\t%s\n' "$name" "$(wc -c < "$f")" >> /app/archive/MANIFEST
done
echo "copied $(ls /app/incoming | wc -l) files"
