#!/bin/bash
set -e
cat > /app/bin/league <<'EOF'
#!/bin/bash
# Prints each team's matches played and points from /app/data/results.txt (points: /app/data/points.conf).
read -r win draw < /app/data/points.conf
teams="raven gamma sierra maple"
for t in $teams; do
  played=0
  points=0
  while read -r team result; do
    result=${result,,}
    if [ "$team" = "$t" ]; then
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
/app/bin/league > /app/points.txt
