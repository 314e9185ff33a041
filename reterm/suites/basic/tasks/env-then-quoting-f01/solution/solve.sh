#!/bin/bash
set -e
cat > /app/run.sh <<'EOF'
#!/bin/bash
# Stages every document of the inbox and summarises it: "<name>: <lines> lines".
set -e
: "${SOURCE_DIR:?SOURCE_DIR must point at the inbox directory}"
stage=/app/tmp/staging
if [ ! -d "$stage" ]; then
  echo "error: staging directory $stage does not exist" >&2
  exit 1
fi
mkdir -p /app/out
for f in "$SOURCE_DIR"/*.txt; do
  name=$(basename "$f" .txt)
  cp "$f" "$stage/$name.txt"
  echo "$name: $(wc -l < "$stage/$name.txt") lines"
done > /app/out/summary.txt
EOF
mkdir -p /app/tmp/staging
SOURCE_DIR=/app/inbox bash /app/run.sh
