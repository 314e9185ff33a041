#!/bin/bash
set -e
cat > /app/triage.sh <<'EOF'
#!/bin/bash
# Summarises the logs: ERROR and WARN lines per file, then the totals.
# LOG_DIR may point at another log directory (default: /app/logs).
set -euo pipefail
trap 'echo "$0: line $LINENO: a command failed (status $?) and set -e stopped the script" >&2' ERR
dir=${LOG_DIR:-/app/logs}
files=0
total_e=0
total_w=0
for f in "$dir"/*.log; do
  e=$(grep -c ' ERROR ' "$f" || true)
  w=$(grep -c ' WARN ' "$f" || true)
  echo "$(basename "$f" .log): errors=$e warnings=$w"
  total_e=$((total_e + e))
  total_w=$((total_w + w))
  files=$((files + 1))
done
echo "files=$files errors=$total_e warnings=$total_w"
EOF
bash /app/triage.sh > /app/counts.txt
