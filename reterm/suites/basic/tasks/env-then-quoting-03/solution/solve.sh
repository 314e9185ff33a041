#!/bin/bash
set -e
cat > /app/run.sh <<'EOF'
#!/bin/bash
# Stages every document of the inbox and summarises it: "<name>: <lines> lines".
set -e
: "${DOCS_DIR:?DOCS_DIR must point at the inbox directory}"
stage=/app/work
if [ ! -d "$stage" ]; then
  echo "error: staging directory $stage does not exist" >&2
  exit 1
fi
mkdir -p /app/out
for f in "$DOCS_DIR"/*.txt; do
  name=$(basename "$f" .txt)
  cp "$f" "$stage/$name.txt"
  echo "$name: $(wc -l < "$stage/$name.txt") lines"
done > /app/out/summary.txt
EOF
mkdir -p /app/work
DOCS_DIR=/app/inbox bash /app/run.sh
