#!/bin/bash
set -e
cat > /app/bin/sync.sh <<'EOF'
#!/bin/bash
# Copies every file of /app/inbox to /app/backup and lists each one with its word count in /app/backup/MANIFEST.
mkdir -p /app/backup
: > /app/backup/MANIFEST
for f in /app/inbox/*; do
  name=$(basename "$f")
  cp "$f" "/app/backup/$name"
  printf '%s\t%s\n' "$name" "$(wc -w < "$f")" >> /app/backup/MANIFEST
done
echo "copied $(ls /app/inbox | wc -l) files"
EOF
bash /app/bin/sync.sh
