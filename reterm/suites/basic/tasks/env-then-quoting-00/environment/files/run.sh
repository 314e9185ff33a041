#!/bin/bash
# Stages every document of the inbox and summarises it: "<name>: <lines> lines".
set -e
: "${DOCS_DIR:?DOCS_DIR must point at the inbox directory}"
stage=/app/stage
if [ ! -d "$stage" ]; then
  echo "error: staging directory $stage does not exist" >&2
  exit 1
fi
mkdir -p /app/out
for f in $(ls "$DOCS_DIR"/*.txt); do
  name=$(basename $f .txt)
  cp "$f" "$stage/$name.txt"
  echo "$name: $(wc -l < "$stage/$name.txt") lines"
done > /app/out/summary.txt
