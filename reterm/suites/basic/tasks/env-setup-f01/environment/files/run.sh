#!/bin/bash
# Builds /app/out/summary.txt from the dataset.
: "${INPUT_DIR:?INPUT_DIR must point at the dataset directory}"
if [ ! -d /app/tmp/work ]; then
  echo "error: cache directory /app/tmp/work does not exist" >&2
  exit 1
fi
mkdir -p /app/out
for f in "$INPUT_DIR"/*.txt; do
  echo "$(basename "$f" .txt) $(wc -l < "$f")"
done | sort > /app/out/summary.txt
