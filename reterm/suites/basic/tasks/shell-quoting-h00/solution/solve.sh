#!/bin/bash
set -e
cat > /app/bin/sync.sh <<'EOF'
#!/bin/bash
# Copies every file of /app/uploads to /app/mirror and lists each one with its word count in /app/mirror/MANIFEST.
mkdir -p /app/mirror
: > /app/mirror/MANIFEST
for f in /app/uploads/*; do
  name=$(basename "$f")
  cp "$f" "/app/mirror/$name"
  printf '%s\t%s\n' "$name" "$(wc -w < "$f")" >> /app/mirror/MANIFEST
done
echo "copied $(ls /app/uploads | wc -l) files"
EOF
bash /app/bin/sync.sh
