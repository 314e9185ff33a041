#!/bin/bash
# Copies every file of /app/incoming to /app/archive and lists each one with its word count in /app/archive/MANIFEST.
mkdir -p /app/archive
: > /app/archive/MANIFEST
files=(/app/incoming/*)
for f in ${files[@]}; do
  name=$(basename "$f")
  cp "$f" "/app/archive/$name"
  printf '%s\t%s\n' "$name" "$(wc -w < "$f")" >> /app/archive/MANIFEST
done
echo "copied $(ls /app/incoming | wc -l) files"
