#!/bin/bash
set -e
cat > /app/bin/standings <<'EOF'
#!/bin/bash
# Prints each team's matches played and points from /app/data/results.txt (points: /app/data/points.conf).
read -r win draw < /app/data/points.conf
teams="ember maple indigo"
for t in $teams; do
  played=0
  points=0
  while read -r team result; do
    result=$(printf '%s' "$result" | tr '[:upper:]' '[:lower:]')
    if [[ $team == "$t" ]]; then
      played=$((played + 1))
      case $result in
        win) points=$((points + win)) ;;
        draw) points=$((points + draw)) ;;
      esac
    fi
  done < /app/data/results.txt
  echo "$t played=$played points=$points"
done
EOF
/app/bin/standings > /app/points.txt
