#!/bin/bash
# Copies every file of /app/inbox to /app/backup and lists each one with its size in bytes in /app/backup/MANIFEST.
mkdir -p /app/backup
: > /app/backup/MANIFEST
for name in $(ls /app/inbox); do
  f=/app/inbox/$name
  cp "$f" "/app/backup/$name"
  printf '%s\t%s\n' "$name" "$(wc -c < "$f")" >> /app/backup/MANIFEST
done
echo "copied $(ls /app/inbox | wc -l) files"
