#!/bin/bash
# Builds /app/out/summary.txt from the dataset.
: "${DATA_DIR:?DATA_DIR must point at the dataset directory}"
if [ ! -d /app/cache ]; then
  echo "error: cache directory /app/cache does not exist" >&2
  exit 1
fi
mkdir -p /app/out
for f in "$DATA_DIR"/*.txt; do
  echo "$(basename "$f" .txt) $(wc -l < "$f")"
done | sort > /app/out/summary.txt
