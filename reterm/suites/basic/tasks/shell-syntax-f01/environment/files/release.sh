#!/bin/bash
# Packages the release: writes /app/release/VERSION and a manifest of the sources.
set -e
mkdir -p /app/release
if [ -f /app/src/VERSION ]; then
  cp /app/src/VERSION /app/release/VERSION
fi
for f in /app/src/*.txt; do
  echo "$(basename "$f") $(wc -c < "$f")"
done > /app/release/MANIFEST
echo "released tango
